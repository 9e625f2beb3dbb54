'use strict';
// Messages the broker acknowledged to a 5.x producer survive SIGKILL of the broker: after a
// restart on the same store, a consumer receives every one of them.
const assert = require('node:assert/strict');
const { run } = require('./harness');

run('survives_sigkill', async h => {
  const topic = await h.createTopic('NORMAL', 4);
  const producer = await h.producer({ topics: [ topic ] });
  const sent = new Map();
  for (let i = 0; i < 40; i++) {
    const body = Buffer.from(`durable ${i}`);
    sent.set((await producer.send({ topic, tag: 'd', body })).messageId, body);
  }
  await h.shutdown(producer);
  h.broker.killedOnPurpose = true;
  h.broker.kill();
  await h.broker.exited;
  h.note('broker killed with SIGKILL after 40 acknowledged sends');
  await h.broker.start();
  const consumer = await h.simpleConsumer(h.name('G'), new Map([ [ topic, '*' ] ]));
  const got = await h.receiveAll(consumer, sent.size, { ms: 40000 });
  const received = new Map(got.map(v => [ v.messageId, v.body ]));
  for (const [ id, body ] of sent) {
    assert.ok(received.has(id), `acknowledged message ${id} survived`);
    assert.deepEqual(received.get(id), body);
  }
});
