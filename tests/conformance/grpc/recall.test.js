'use strict';
// Recalling a delayed message (RecallMessage): a DELAY topic's send receipt carries a recall
// handle, recallMessage answers the message id and that message never arrives while the one sent
// beside it does; recalling on a NORMAL topic or after the delivery is refused.
const assert = require('node:assert/strict');
const { run, sleep } = require('./harness');

run('recall', async h => {
  const topic = await h.createTopic('DELAY', 2);
  const normal = await h.createTopic('NORMAL', 2);
  const producer = await h.producer({ topics: [ topic, normal ] });
  const consumer = await h.simpleConsumer(h.name('G'), new Map([ [ topic, '*' ] ]));
  const due = new Date(Date.now() + 4000);
  const kept = await producer.send({ topic, tag: 'r', body: Buffer.from('kept'), deliveryTimestamp: due });
  const recalled = await producer.send({ topic, tag: 'r', body: Buffer.from('recalled'), deliveryTimestamp: due });
  assert.ok(kept.recallHandle && recalled.recallHandle, 'delayed sends carry recall handles');
  const now = await producer.send({ topic: normal, tag: 'r', body: Buffer.from('now') });
  assert.ok(!now.recallHandle, `a message for now has no recall handle: ${now.recallHandle}`);

  const receipt = await producer.recallMessage(topic, recalled.recallHandle);
  assert.equal(receipt.messageId, recalled.messageId, 'recallMessage answers the recalled message id');
  await assert.rejects(producer.recallMessage(normal, kept.recallHandle), /40014|DELAY/,
    'recalling on a NORMAL topic is refused');

  const got = await h.receiveAll(consumer, 1, { ms: 20000 });
  assert.deepEqual(got.map(v => v.body.toString()), [ 'kept' ], 'the kept message arrives');
  await sleep(1500);
  const none = await consumer.receive(16, 15000);
  assert.equal(none.length, 0, `the recalled message was delivered: ${none.map(v => v.body.toString())}`);
  await assert.rejects(producer.recallMessage(topic, kept.recallHandle), /timestamp invalid/,
    'recalling after the delivery is refused');
});
