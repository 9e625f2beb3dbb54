'use strict';
// Two consumers of one group (clustering) on a 4-queue topic. Once both are registered, ali-ons'
// rebalance (every 10 s, GET_CONSUMER_LIST_BY_GROUP + allocate-averagely) must leave each owning a
// disjoint, non-empty set of queues that together cover the topic. Messages sent after that are
// received exactly once between the two, each by the consumer that owns its queue.

const assert = require('node:assert');
const { run, expectNone, ons } = require('./harness');

const N = 40;

run('two_consumers_split_queues', async h => {
  const topic = await h.topic();
  const group = h.name('CG');
  const producer = await h.makeProducer();
  const opts = { consumerGroup: group, consumeFromWhere: 'CONSUME_FROM_FIRST_OFFSET' };

  const c1 = await h.makeConsumer({ ...opts, label: 'consumer-1' });
  const got1 = h.collect(c1, topic, '*', 'consumer-1');
  await h.waitFor(() => h.ownedQueues(c1, topic).length === 4, 20000,
    () => `consumer-1, alone in group ${group}, to own all 4 queues of ${topic} (owns ` +
      `${JSON.stringify(h.ownedQueues(c1, topic))})`);
  h.note('consumer-1 owns all 4 queues');

  const c2 = await h.makeConsumer({ ...opts, label: 'consumer-2' });
  const got2 = h.collect(c2, topic, '*', 'consumer-2');
  const split = () => {
    const a = h.ownedQueues(c1, topic);
    const b = h.ownedQueues(c2, topic);
    const union = new Set([ ...a, ...b ]);
    return { a, b, ok: a.length > 0 && b.length > 0 && union.size === 4 && a.length + b.length === 4 };
  };
  await h.waitFor(() => split().ok, 40000, () => {
    const { a, b } = split();
    return `the two consumers of group ${group} to split the 4 queues into disjoint non-empty sets ` +
      `(consumer-1 owns ${JSON.stringify(a)}, consumer-2 owns ${JSON.stringify(b)}; ali-ons allocates from the ` +
      'GET_CONSUMER_LIST_BY_GROUP reply, which must list both client ids)';
  });
  const { a: owned1, b: owned2 } = split();
  h.note(`split: consumer-1 owns ${JSON.stringify(owned1)}, consumer-2 owns ${JSON.stringify(owned2)}`);

  const sent = new Map(); // id -> queueId
  for (let i = 0; i < N; i++) {
    const id = `m-${i}`;
    const r = await h.send(producer, new ons.Message(topic, 'TagA', id), id);
    assert.strictEqual(r.sendStatus, 'SEND_OK', `send ${id}: ${JSON.stringify(r)}`);
    sent.set(id, Number(r.messageQueue.queueId));
  }
  h.note(`sent ${N} messages`);

  const all = () => got1.concat(got2);
  const distinct = () => new Set(all().map(d => d.msg.body.toString()));
  await h.waitFor(() => distinct().size >= N, 30000,
    () => `all ${N} messages to be delivered (got ${distinct().size}: consumer-1 ${got1.length}, consumer-2 ` +
      `${got2.length}; missing ${[ ...sent.keys() ].filter(id => !distinct().has(id)).join(',')})`);
  await h.sleep(3000); // late duplicates would show up here

  const seen = new Map();
  for (const d of all()) {
    const id = d.msg.body.toString();
    if (!seen.has(id)) seen.set(id, []);
    seen.get(id).push(`${d.label}(q${d.msg.queueId}@${d.msg.queueOffset})`);
  }
  const unexpected = [ ...seen.keys() ].filter(id => !sent.has(id));
  expectNone(unexpected, 'messages that were never sent were delivered');
  const dups = [ ...seen ].filter(([ , v ]) => v.length > 1).map(([ id, v ]) => `${id}: ${v.join(' + ')}`);
  expectNone(dups, 'messages delivered more than once (queues were stable, so none may repeat)');
  const missing = [ ...sent.keys() ].filter(id => !seen.has(id));
  expectNone(missing, 'messages never delivered');

  for (const [ label, got, owned ] of [ [ 'consumer-1', got1, owned1 ], [ 'consumer-2', got2, owned2 ] ]) {
    assert.ok(got.length > 0, `${label} received nothing although it owns queues ${JSON.stringify(owned)}`);
    for (const d of got) {
      const id = d.msg.body.toString();
      assert.ok(owned.includes(Number(d.msg.queueId)),
        `${label} received ${id} from queue ${d.msg.queueId}, which it does not own (${JSON.stringify(owned)})`);
      assert.strictEqual(Number(d.msg.queueId), sent.get(id),
        `${id}: delivered from queue ${d.msg.queueId} but the send result said queue ${sent.get(id)}`);
    }
  }
  h.note(`exactly once: consumer-1 ${got1.length}, consumer-2 ${got2.length}`);
});
