'use strict';
// Committed consumer offsets survive a broker restart.
//  1. Send batch A; a consumer of group G consumes all of it; wait until the broker reports (via
//     QUERY_CONSUMER_OFFSET) the committed offsets ali-ons persists every 5 s; close the consumer.
//  2. Stop the broker (SIGTERM: exit 0, no abort file); its store must hold the offsets in
//     config/consumerOffset.json; start it again on the same store.
//  3. Send batch B; a new consumer of G (default CONSUME_FROM_LAST_OFFSET) must receive exactly B:
//     nothing of A again (the close committed everything), and every message of B.

const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { run, expectNone, ons, RequestCode } = require('./harness');

const N = 20;

// consumerOffset.json as the Java broker writes it (fastjson: integer map keys unquoted).
function readOffsetFile(file) {
  const text = fs.readFileSync(file, 'utf8');
  try {
    return JSON.parse(text.replace(/([{,]\s*)(-?\d+)(\s*:)/g, '$1"$2"$3'));
  } catch (err) {
    throw new Error(`${file} is not (fastjson-style) JSON: ${err.message}\n${text.slice(0, 500)}`);
  }
}

async function sendBatch(h, producer, topic, prefix) {
  const sent = new Map(); // id -> { queueId, queueOffset }
  for (let i = 0; i < N; i++) {
    const id = `${prefix}-${i}`;
    const r = await h.send(producer, new ons.Message(topic, 'TagA', id), id);
    assert.strictEqual(r.sendStatus, 'SEND_OK', `send ${id}: ${JSON.stringify(r)}`);
    sent.set(id, { queueId: Number(r.messageQueue.queueId), queueOffset: r.queueOffset });
  }
  return sent;
}

run('offsets_survive_restart', async h => {
  const topic = await h.topic();
  const group = h.name('CG');

  // 1. Batch A, consumed completely and committed.
  const producer1 = await h.makeProducer({ label: 'producer-1' });
  const sentA = await sendBatch(h, producer1, topic, 'A');
  const nextOffset = [ 0, 1, 2, 3 ].map(q =>
    Math.max(-1, ...[ ...sentA.values() ].filter(s => s.queueId === q).map(s => s.queueOffset)) + 1);
  h.note(`sent batch A (${N}); per-queue next offsets ${JSON.stringify(nextOffset)}`);

  const consumer1 = await h.makeConsumer({ label: 'consumer-1', consumerGroup: group,
    consumeFromWhere: 'CONSUME_FROM_FIRST_OFFSET' });
  const got1 = h.collect(consumer1, topic, '*', 'consumer-1');
  const ids1 = () => new Set(got1.map(d => d.msg.body.toString()));
  await h.waitFor(() => ids1().size >= N, 30000,
    () => `consumer-1 to receive all of batch A (missing ${[ ...sentA.keys() ].filter(id => !ids1().has(id)).join(',')})`);
  h.note('consumer-1 consumed batch A');

  let committed = [];
  await h.waitFor(async () => {
    committed = [];
    for (let q = 0; q < 4; q++) committed.push(await h.queryCommittedOffset(producer1, topic, group, q));
    if (committed.every((o, q) => o === nextOffset[q])) return true;
    await h.sleep(450); // ask the broker about twice a second, not every 50 ms
    return false;
  }, 25000, () => `the broker to report group ${group}'s committed offsets ${JSON.stringify(nextOffset)} for ` +
    `queues 0-3 (QUERY_CONSUMER_OFFSET answered ${JSON.stringify(committed)}, -1 = QUERY_NOT_FOUND; ali-ons sends ` +
    'UPDATE_CONSUMER_OFFSET every 5 s, without the oneway flag)');
  h.note(`broker reports committed offsets ${JSON.stringify(committed)}`);
  await h.close(consumer1);
  await h.close(producer1);

  // 2. Restart on the same store.
  await h.broker.stop();
  const offsetFile = path.join(h.broker.storeDir, 'config', 'consumerOffset.json');
  assert.ok(fs.existsSync(offsetFile), `the broker left no ${offsetFile} after a clean shutdown`);
  const table = (readOffsetFile(offsetFile).offsetTable || {})[`${topic}@${group}`];
  assert.ok(table, `${offsetFile} has no offsetTable entry "${topic}@${group}"`);
  const inFile = [ 0, 1, 2, 3 ].map(q => Number(table[q]));
  assert.deepStrictEqual(inFile, nextOffset,
    `${offsetFile}: offsets of "${topic}@${group}" are ${JSON.stringify(table)}, expected ${JSON.stringify(nextOffset)}`);
  await h.broker.start();

  // 3. Batch B; a new consumer of the same group resumes at the committed offsets.
  const producer2 = await h.makeProducer({ label: 'producer-2' });
  const sentB = await sendBatch(h, producer2, topic, 'B');
  h.note(`sent batch B (${N}) after the restart`);

  const consumer2 = await h.makeConsumer({ label: 'consumer-2', consumerGroup: group });
  const got2 = h.collect(consumer2, topic, '*', 'consumer-2');
  const ids2 = () => new Set(got2.map(d => d.msg.body.toString()));
  const offsetReplies = () => h.wire.entries
    .filter(e => e.code === RequestCode.QUERY_CONSUMER_OFFSET && e.header.topic === topic &&
      e.client === consumer2._mqClient.clientId)
    .map(e => `q${e.header.queueId}: ${!e.res ? e.err || 'pending' : e.res.code === 0 ? `offset ${e.res.ext.offset}` :
      `code ${e.res.code}${e.res.code === 22 ? ' (QUERY_NOT_FOUND)' : ''}`}`);
  await h.waitFor(() => [ ...sentB.keys() ].every(id => ids2().has(id)), 40000,
    () => `consumer-2 (same group, CONSUME_FROM_LAST_OFFSET) to receive all of batch B (missing ` +
      `${[ ...sentB.keys() ].filter(id => !ids2().has(id)).join(',')}; received ${got2.length}; its ` +
      `QUERY_CONSUMER_OFFSET replies: ${offsetReplies().join(', ') || 'none'})`);
  await h.sleep(3000); // redeliveries of A, if any, arrive by now

  const redelivered = got2.filter(d => sentA.has(d.msg.body.toString()))
    .map(d => `${d.msg.body}(q${d.msg.queueId}@${d.msg.queueOffset})`);
  expectNone(redelivered,
    `messages of batch A, consumed and committed before the restart, were delivered again (committed offsets ` +
    `${JSON.stringify(nextOffset)}; QUERY_CONSUMER_OFFSET replies after the restart: ${offsetReplies().join(', ')})`);
  const counts = new Map();
  for (const d of got2) counts.set(d.msg.body.toString(), (counts.get(d.msg.body.toString()) || 0) + 1);
  const dups = [ ...counts ].filter(([ , n ]) => n > 1).map(([ id, n ]) => `${id} x${n}`);
  expectNone(dups, 'messages of batch B delivered more than once');
  const unknown = [ ...counts.keys() ].filter(id => !sentA.has(id) && !sentB.has(id));
  expectNone(unknown, 'delivered messages that were never sent');
  h.note(`consumer-2 received exactly batch B (${got2.length}); offset replies: ${offsetReplies().join(', ')}`);
});
