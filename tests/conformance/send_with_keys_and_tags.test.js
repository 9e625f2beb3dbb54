'use strict';
// A producer sends N messages with keys and tags to a new (auto-created, 4-queue) topic. Every send
// must resolve SEND_OK with a 32-hex-digit msgId and a queueOffset, msgIds must be unique, and
// because the sends are sequential on a fresh topic: each queue's offsets are 0, 1, 2, ... in send
// order, all 4 queues are used (ali-ons rotates over the route's write queues), and the commit-log
// offsets carried in the msgIds grow with every send.

const assert = require('node:assert');
const { run, ons } = require('./harness');

const N = 40;
const TAGS = [ 'TagA', 'TagB', 'TagC', 'TagD' ];

run('send_with_keys_and_tags', async h => {
  const topic = await h.topic();
  const producer = await h.makeProducer();

  const results = [];
  for (let i = 0; i < N; i++) {
    const msg = new ons.Message(topic, TAGS[i % TAGS.length], `message ${i}`);
    msg.keys = [ `key-${i}`, `order-${i % 7}` ];
    const r = await h.send(producer, msg, `message #${i}`);
    const what = `send #${i} (result ${JSON.stringify(r)})`;
    assert.strictEqual(r.sendStatus, 'SEND_OK', `${what}: sendStatus`);
    assert.ok(typeof r.msgId === 'string' && /^[0-9A-Fa-f]{32}$/.test(r.msgId),
      `${what}: msgId must be 32 hex digits (offset message id: store IPv4, port, commit-log offset)`);
    assert.ok(Number.isInteger(r.queueOffset) && r.queueOffset >= 0, `${what}: queueOffset must be an integer >= 0`);
    const queueId = Number(r.messageQueue && r.messageQueue.queueId);
    assert.ok(Number.isInteger(queueId) && queueId >= 0 && queueId < 4,
      `${what}: queueId must be one of the topic's 4 queues`);
    results.push({ i, msgId: r.msgId.toUpperCase(), queueId, queueOffset: r.queueOffset });
  }
  h.note(`${N} sends: SEND_OK; first ${JSON.stringify(results[0])}`);

  const byId = new Map();
  for (const r of results) {
    assert.ok(!byId.has(r.msgId), `msgId ${r.msgId} returned for send #${byId.get(r.msgId)} and again for #${r.i}`);
    byId.set(r.msgId, r.i);
  }

  const perQueue = new Map();
  for (const r of results) {
    if (!perQueue.has(r.queueId)) perQueue.set(r.queueId, []);
    perQueue.get(r.queueId).push(r.queueOffset);
  }
  assert.deepStrictEqual([ ...perQueue.keys() ].sort(), [ 0, 1, 2, 3 ],
    'ali-ons rotates over all write queues of the route; sends landed only on queues ' +
    `${JSON.stringify([ ...perQueue.keys() ].sort())} (does the route announce 4 write queues?)`);
  for (const [ q, offsets ] of perQueue) {
    assert.deepStrictEqual(offsets, offsets.map((_, k) => k),
      `queue ${q}: queueOffsets of sequential sends to a fresh topic must be 0,1,2,... in send order, got ` +
      JSON.stringify(offsets));
  }

  const commitLogOffsets = results.map(r => BigInt(`0x${r.msgId.slice(16)}`));
  for (let k = 1; k < commitLogOffsets.length; k++) {
    assert.ok(commitLogOffsets[k] > commitLogOffsets[k - 1],
      `msgId of send #${k} (${results[k].msgId}) carries commit-log offset ${commitLogOffsets[k]}, not greater ` +
      `than send #${k - 1}'s ${commitLogOffsets[k - 1]} (${results[k - 1].msgId})`);
  }
});
