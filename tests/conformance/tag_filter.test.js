'use strict';
// A subscription 'TagA || TagC' receives every TagA and TagC message and nothing else. ali-ons
// filters by tag again on the client, so the pulled record batches are checked as well: the broker
// must filter server-side (by the tags hash code in the consume queue), i.e. never return a TagB,
// TagD or untagged (TAGS=null) record for this subscription.

const assert = require('node:assert');
const { run, expectNone, ons, RequestCode } = require('./harness');

const TAGS = [ 'TagA', 'TagB', 'TagC', 'TagD' ];
const WANTED = new Set([ 'TagA', 'TagC' ]);
const N = 32;

run('tag_filter', async h => {
  const topic = await h.topic();
  const group = h.name('CG');
  const producer = await h.makeProducer();

  const expected = new Set();
  for (let i = 0; i < N; i++) {
    const tag = TAGS[i % TAGS.length];
    const id = `${tag}-${i}`;
    await h.send(producer, new ons.Message(topic, tag, id), id);
    if (WANTED.has(tag)) expected.add(id);
  }
  for (let i = 0; i < 2; i++) await h.send(producer, new ons.Message(topic, `untagged-${i}`), `untagged-${i}`);
  h.note(`sent ${N} tagged (${expected.size} wanted) + 2 untagged messages`);

  const consumer = await h.makeConsumer({ consumerGroup: group, consumeFromWhere: 'CONSUME_FROM_FIRST_OFFSET' });
  const got = h.collect(consumer, topic, 'TagA || TagC');
  const ids = () => new Set(got.map(d => d.msg.body.toString()));
  await h.waitFor(() => [ ...expected ].every(id => ids().has(id)), 30000,
    () => `every TagA/TagC message to be delivered (missing ${[ ...expected ].filter(id => !ids().has(id)).join(',')})`);
  await h.sleep(2000); // anything unwanted still in flight would arrive now

  const wrong = got.filter(d => !WANTED.has(d.msg.tags)).map(d => `${d.msg.body}(tags=${d.msg.tags})`);
  expectNone(wrong, 'delivered messages whose tag does not match TagA || TagC');
  const counts = new Map();
  for (const d of got) counts.set(d.msg.body.toString(), (counts.get(d.msg.body.toString()) || 0) + 1);
  const dups = [ ...counts ].filter(([ , n ]) => n > 1).map(([ id, n ]) => `${id} x${n}`);
  expectNone(dups, 'messages delivered more than once');
  for (const d of got) {
    assert.ok(expected.has(d.msg.body.toString()) && d.msg.body.toString().startsWith(d.msg.tags),
      `message ${d.msg.body} arrived with tags ${d.msg.tags}`);
  }

  const pulls = h.wire.entries.filter(e => e.code === RequestCode.PULL_MESSAGE && e.header.topic === topic);
  for (const e of pulls) {
    assert.strictEqual(e.header.subscription, 'TagA || TagC', 'ali-ons sends its subscription with every pull');
    const unwanted = (e.records || []).filter(r => !WANTED.has(r.tags));
    expectNone(unwanted.map(r => `q${r.queueId}@${r.queueOffset} tags=${r.tags}`),
      `pull #${e.id} (queue ${e.header.queueId}, offset ${e.header.queueOffset}, subscription ` +
      `${JSON.stringify(e.header.subscription)}) returned records the broker should have filtered out server-side`);
  }
  const pulledRecords = pulls.reduce((n, e) => n + (e.records ? e.records.length : 0), 0);
  h.note(`delivered ${got.length} (all TagA/TagC); ${pulls.length} pulls returned ${pulledRecords} records, none unwanted`);
});
