'use strict';
// A SimpleConsumer's un-acked message comes back after its invisible duration with its delivery
// attempt counted up; changeInvisibleDuration hands out a new receipt handle that acks, and the
// broker refuses a stale handle with INVALID_RECEIPT_HANDLE instead of losing or duplicating.
const assert = require('node:assert/strict');
const { run, sleep } = require('./harness');

run('redelivery_and_invisible', async h => {
  const topic = await h.createTopic('NORMAL', 2);
  const producer = await h.producer({ topics: [ topic ] });
  const first = await producer.send({ topic, tag: 'T', body: Buffer.from('left un-acked') });
  const second = await producer.send({ topic, tag: 'T', body: Buffer.from('made visible sooner') });

  const group = h.name('G');
  const consumer = await h.simpleConsumer(group, new Map([ [ topic, '*' ] ]));
  const got = await h.receiveAll(consumer, 2, { ack: false, invisible: 10000 });
  assert.equal(got.length, 2, 'both messages received');
  const byId = new Map(got.map(v => [ v.messageId, v ]));
  assert.ok(byId.has(first.messageId) && byId.has(second.messageId));
  assert.equal(byId.get(first.messageId).deliveryAttempt, 1);

  // The second one: shortened to 1 s, then it comes back before the first.
  const shortened = byId.get(second.messageId);
  const oldHandle = shortened.receiptHandle;
  await consumer.changeInvisibleDuration(shortened, 1000);
  assert.notEqual(shortened.receiptHandle, oldHandle, 'changeInvisibleDuration gives a new receipt handle');

  const t0 = Date.now();
  const again = await h.receiveAll(consumer, 1, { ack: false, ms: 9000, invisible: 20000 });
  assert.equal(again.length, 1, 'the message made visible in 1 s is redelivered');
  assert.equal(again[0].messageId, second.messageId);
  assert.equal(again[0].deliveryAttempt, 2, 'a redelivery counts its attempt');
  assert.deepEqual(again[0].body, Buffer.from('made visible sooner'));
  await consumer.ack(again[0]);

  // The first comes back once its 10 s have passed (through the group's retry topic).
  const later = await h.receiveAll(consumer, 1, { ack: false, ms: 30000, invisible: 20000 });
  assert.equal(later.length, 1, 'the un-acked message is redelivered after its invisible time');
  assert.equal(later[0].messageId, first.messageId);
  assert.equal(later[0].deliveryAttempt, 2);
  assert.ok(Date.now() - t0 >= 7000, 'not before its invisible time');
  const stale = byId.get(first.messageId);
  await assert.rejects(consumer.ack(stale), /receipt handle|INVALID_RECEIPT_HANDLE|40013/i,
    'acking with the expired handle is refused');
  await consumer.ack(later[0]);

  await sleep(1500);
  const none = await consumer.receive(16, 10000);
  assert.equal(none.length, 0, 'acked messages stay acked');
});
