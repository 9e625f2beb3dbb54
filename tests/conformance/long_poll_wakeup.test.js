'use strict';
// Long polling. ali-ons pulls with suspendTimeoutMillis 15000 and a 30 s request timeout.
//  1. An idle consumer's pulls must be held by the broker (each pending for seconds, not answered
//     at once with PULL_NOT_FOUND and re-sent in a tight loop).
//  2. A message sent then must wake the held pull of its queue: delivered < 5 s after send() (a
//     broker that never wakes held pulls delivers only when the 15 s hold expires). This is a
//     protocol behaviour check with a wide margin, not a performance figure.
//  3. A held pull with nothing to deliver is answered PULL_NOT_FOUND when its hold expires, well
//     before ali-ons' 30 s timeout (on a timeout ali-ons closes the connection).

const assert = require('node:assert');
const { run, ons, RequestCode, ResponseCode } = require('./harness');

const resName = c => `code ${c}${c === ResponseCode.PULL_NOT_FOUND ? ' (PULL_NOT_FOUND)' : ''}`;

const HELD_MS = 2000;
const MAX_WAKEUP_MS = 5000;

run('long_poll_wakeup', async h => {
  const topic = await h.topic();
  const group = h.name('CG');
  const producer = await h.makeProducer();
  const consumer = await h.makeConsumer({ consumerGroup: group, consumeFromWhere: 'CONSUME_FROM_FIRST_OFFSET' });
  const got = h.collect(consumer, topic, '*');
  const clientId = consumer._mqClient.clientId;
  const pulls = () => h.wire.entries.filter(e => e.code === RequestCode.PULL_MESSAGE && e.client === clientId &&
    e.header.topic === topic);

  await h.waitFor(() => h.ownedQueues(consumer, topic).length === 4, 20000,
    () => `the consumer to own all 4 queues of ${topic} (owns ${JSON.stringify(h.ownedQueues(consumer, topic))})`);

  // 1. Every queue has a pull that the broker has held for HELD_MS.
  const heldQueues = () => {
    const now = Date.now();
    return new Set(pulls().filter(e => !e.res && !e.err && now - e.t0 >= HELD_MS).map(e => Number(e.header.queueId)));
  };
  await h.waitFor(() => heldQueues().size === 4, 20000, () => {
    const per = [ 0, 1, 2, 3 ].map(q => {
      const mine = pulls().filter(e => Number(e.header.queueId) === q);
      const answered = mine.filter(e => e.res || e.err);
      const last = answered[answered.length - 1];
      return `q${q}: ${mine.length} pulls, ${answered.length} answered` +
        (last ? ` (last: ${last.res ? `code ${last.res.code}` : last.err} after ${last.t1 - last.t0} ms)` : '');
    });
    return `a held pull (pending >= ${HELD_MS} ms) on every queue of the idle consumer: the broker must suspend ` +
      `pulls that find no message (suspendTimeoutMillis 15000) instead of answering at once [${per.join('; ')}]`;
  });
  const pendingAtSend = pulls().filter(e => !e.res && !e.err).map(e => `#${e.id} q${e.header.queueId} ` +
    `held ${Date.now() - e.t0} ms`);
  h.note(`idle consumer's pulls are held: ${pendingAtSend.join(', ')}`);

  // 2. Wake-up.
  const sendStart = Date.now();
  const r = await h.send(producer, new ons.Message(topic, 'TagA', 'wake up'), 'the wake-up message');
  const sent = Date.now();
  assert.strictEqual(r.sendStatus, 'SEND_OK', `send: ${JSON.stringify(r)}`);
  await h.waitFor(() => got.length > 0, 20000,
    `delivery of the message sent at ${new Date(sent).toISOString()} to queue ${r.messageQueue.queueId}`);
  const delay = got[0].at - sent;
  const carrier = pulls().find(e => (e.records || []).some(rec => rec.queueOffset === r.queueOffset &&
    rec.queueId === Number(r.messageQueue.queueId)));
  const queueId = Number(r.messageQueue.queueId);
  const heldThen = pulls().find(e => Number(e.header.queueId) === queueId && e.t0 < sendStart &&
    (!e.t1 || e.t1 >= sendStart));
  let carrierText = carrier ? `pull #${carrier.id} (queue ${queueId}, sent ${Math.abs(sendStart - carrier.t0)} ms ` +
    `${carrier.t0 <= sendStart ? 'before' : 'after'} the message, answered ${carrier.t1 - sent} ms after send() resolved)` :
    'an unknown pull';
  if (heldThen && heldThen !== carrier) {
    carrierText += `; the pull held on queue ${queueId} when the message arrived (#${heldThen.id}) was answered ` +
      `${heldThen.res ? resName(heldThen.res.code) : heldThen.err || 'not at all'} ${heldThen.t1 ? `after ${heldThen.t1 - heldThen.t0} ms` : ''}`;
  }
  h.note(`delivered ${delay} ms after send() resolved (send took ${sent - sendStart} ms) by ${carrierText}`);
  assert.ok(delay < MAX_WAKEUP_MS,
    `the message was delivered ${delay} ms after send() resolved (limit ${MAX_WAKEUP_MS} ms, the hold is 15 s): ` +
    `the broker must answer a held pull as soon as a message for its queue arrives; carried by ${carrierText}`);

  // 3. Hold expiry: the first pull sent after send() resolved that does not carry a message (the
  // message's queue is re-pulled at once, the others once their holds expire) is answered
  // PULL_NOT_FOUND after roughly the requested 15 s (wide bounds), before ali-ons' 30 s timeout.
  const idle = () => pulls().filter(e => e.t0 > sent && !(e.res && e.res.code === ResponseCode.SUCCESS));
  await h.waitFor(() => idle().some(e => e.res || e.err), 32000,
    () => `an idle held pull sent after the message to be answered when its 15 s hold expires (pending: ` +
      `${idle().map(e => `#${e.id} q${e.header.queueId} ${Date.now() - e.t0} ms`).join(', ')}); ali-ons times out at 30 s`);
  const first = idle().filter(e => e.res || e.err).sort((a, b) => a.t1 - b.t1)[0];
  const held = first.t1 - first.t0;
  const what = `idle pull #${first.id} (queue ${first.header.queueId}, offset ${first.header.queueOffset}) ` +
    `answered after ${held} ms with ${first.res ? `code ${first.res.code}` : first.err}`;
  h.note(what);
  assert.ok(first.res && first.res.code === ResponseCode.PULL_NOT_FOUND,
    `${what}: an expired hold must be answered PULL_NOT_FOUND (19)`);
  assert.ok(held >= 10000 && held <= 28000,
    `${what}: the broker must hold it for the requested 15 s (accepted 10-28 s)`);
});
