'use strict';
// A FIFO topic and an orderly group: a PushConsumer gets every message of a message group in the
// order it was sent, even when one consumption fails and is retried, while different groups
// proceed independently.
const assert = require('node:assert/strict');
const { run, sleep, sdk } = require('./harness');

run('push_fifo', async h => {
  const topic = await h.createTopic('FIFO', 4);
  const group = await h.createGroup({ orderly: true });
  const producer = await h.producer({ topics: [ topic ] });
  const messageGroups = [ 'order-a', 'order-b', 'order-c' ];
  const perGroup = 8;
  for (let i = 0; i < perGroup; i++) {
    for (const messageGroup of messageGroups)
      await producer.send({ topic, tag: 'fifo', messageGroup, body: Buffer.from(`${messageGroup}:${i}`) });
  }

  const seen = new Map(messageGroups.map(g => [ g, [] ]));
  let failedOnce = false;
  await h.pushConsumer(group, new Map([ [ topic, '*' ] ]), view => {
    const [ messageGroup, index ] = view.body.toString().split(':');
    assert.equal(view.messageGroup, messageGroup, 'the message group travels with the message');
    if (messageGroup === 'order-b' && index === '3' && !failedOnce) {
      failedOnce = true;
      return sdk.ConsumeResult.FAILURE; // retried before order-b:4 is handed out
    }
    seen.get(messageGroup).push(Number(index));
    return sdk.ConsumeResult.SUCCESS;
  });
  const until = Date.now() + 60000;
  while ([ ...seen.values() ].some(list => list.length < perGroup) && Date.now() < until) await sleep(200);
  for (const [ messageGroup, list ] of seen) {
    assert.deepEqual(list, [ ...Array(perGroup).keys() ], `${messageGroup} consumed in order, each once`);
  }
  assert.ok(failedOnce, 'the failure was injected');
});
