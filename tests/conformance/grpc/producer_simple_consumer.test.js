'use strict';
// A 5.x producer's normal messages (tag, keys, user properties) reach a SimpleConsumer whole; a
// tag filter gives a group exactly its tag; each ack is final; the server spreads the messages
// over the topic's queues although the SDK sends every one to queue 0 (grpc-proxy spec §7.4 #2).
const assert = require('node:assert/strict');
const { run } = require('./harness');

run('producer_simple_consumer', async h => {
  const topic = await h.createTopic('NORMAL', 4);
  const producer = await h.producer({ topics: [ topic ] });
  const sent = new Map();
  for (let i = 0; i < 12; i++) {
    const tag = i % 2 === 0 ? 'TagA' : 'TagB';
    const body = Buffer.from(`message ${i} ${'x'.repeat(i * 50)}`);
    const receipt = await producer.send({
      topic, tag, keys: [ `key-${i}`, `order-${i % 3}` ], body,
      properties: new Map([ [ 'index', String(i) ], [ 'kind', 'conformance' ] ]),
    });
    assert.ok(receipt.messageId, 'a send receipt carries the message id');
    sent.set(receipt.messageId, { i, tag, body });
  }

  const tagged = await h.simpleConsumer(h.name('GA'), new Map([ [ topic, 'TagA' ] ]));
  const onlyA = await h.receiveAll(tagged, 6);
  assert.equal(onlyA.length, 6, 'the TagA group receives the six TagA messages');
  for (const view of onlyA) {
    const want = sent.get(view.messageId);
    assert.ok(want, `received an unknown message id ${view.messageId}`);
    assert.equal(view.tag, 'TagA');
    assert.equal(view.topic, topic);
    assert.deepEqual(view.body, want.body);
    assert.deepEqual([ ...view.keys ].sort(), [ `key-${want.i}`, `order-${want.i % 3}` ].sort());
    assert.equal(view.properties.get('index'), String(want.i));
    assert.equal(view.properties.get('kind'), 'conformance');
    assert.equal(view.deliveryAttempt, 1);
    assert.ok(!view.corrupted, 'the body digest matches');
  }
  const more = await tagged.receive(16, 15000);
  assert.equal(more.length, 0, 'acked messages do not come back, and TagB never comes');

  const all = await h.simpleConsumer(h.name('GAll'), new Map([ [ topic, '*' ] ]));
  const everything = await h.receiveAll(all, 12);
  assert.equal(new Set(everything.map(v => v.messageId)).size, 12, 'a second group gets all twelve');

  // The queues the broker chose: the topic's status shows messages on more than one queue.
  const status = await h.admin('--json', 'topicStatus', '-t', topic);
  const used = status.trim().split('\n').map(l => JSON.parse(l)).filter(q => Number(q.maxOffset) > 0);
  assert.ok(used.length > 1, `messages spread over the queues: ${status}`);
});
