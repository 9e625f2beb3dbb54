'use strict';
// A PushConsumer (concurrent) consumes everything; a message whose consumption fails is
// redelivered with its delivery attempt counted up, then succeeds; nothing is lost or consumed
// twice after success.
const assert = require('node:assert/strict');
const { run, sleep, sdk } = require('./harness');

run('push_retry', async h => {
  const topic = await h.createTopic('NORMAL', 4);
  const producer = await h.producer({ topics: [ topic ] });
  const ids = new Set();
  for (let i = 0; i < 20; i++)
    ids.add((await producer.send({ topic, tag: 'p', body: Buffer.from(`push ${i}`) })).messageId);

  const succeeded = new Map();
  const attempts = new Map();
  await h.pushConsumer(h.name('G'), new Map([ [ topic, '*' ] ]), view => {
    attempts.set(view.messageId, [ ...(attempts.get(view.messageId) || []), view.deliveryAttempt ]);
    if (view.body.toString() === 'push 7' && view.deliveryAttempt === 1) return sdk.ConsumeResult.FAILURE;
    succeeded.set(view.messageId, (succeeded.get(view.messageId) || 0) + 1);
    return sdk.ConsumeResult.SUCCESS;
  });
  const until = Date.now() + 60000;
  while (succeeded.size < ids.size && Date.now() < until) await sleep(200);
  await sleep(3000); // anything redelivered after success would show now
  assert.equal(succeeded.size, ids.size, `all ${ids.size} consumed (${succeeded.size})`);
  for (const [ id, count ] of succeeded) assert.equal(count, 1, `${id} consumed once after success`);
  const failed = [ ...attempts.entries() ].find(([ , list ]) => list.length > 1);
  assert.ok(failed, 'the failed message came back');
  assert.deepEqual(failed[1], [ 1, 2 ], 'its second delivery says attempt 2');
});
