'use strict';
// A DELAY topic's message with a delivery timestamp arrives at its time, not before (the timer
// wheel), and says when it was due.
const assert = require('node:assert/strict');
const { run } = require('./harness');

run('delay', async h => {
  const topic = await h.createTopic('DELAY', 2);
  const producer = await h.producer({ topics: [ topic ] });
  const consumer = await h.simpleConsumer(h.name('G'), new Map([ [ topic, '*' ] ]));
  const due = new Date(Date.now() + 5000);
  const receipt = await producer.send({ topic, tag: 'later', body: Buffer.from('due in 5 s'), deliveryTimestamp: due });

  const early = await consumer.receive(16, 15000);
  assert.equal(early.length, 0, 'nothing before the delivery time');
  const got = await h.receiveAll(consumer, 1, { ms: 20000 });
  const arrived = Date.now();
  assert.equal(got.length, 1, 'the delayed message arrives');
  assert.equal(got[0].messageId, receipt.messageId);
  assert.ok(arrived >= due.getTime() - 200, `arrived ${due.getTime() - arrived} ms before it was due`);
  assert.ok(got[0].deliveryTimestamp, 'the message carries its delivery timestamp');
  assert.ok(Math.abs(got[0].deliveryTimestamp.getTime() - due.getTime()) < 1000);
});
