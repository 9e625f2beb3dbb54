'use strict';
// A message that keeps failing ends in %DLQ%<group>: with ali-ons' maxReconsumeTimes 2 the handler
// sees it with reconsumeTimes 0, 1 and 2; the third send-back (reconsumeTimes 2 ≥ 2) is stored in
// %DLQ%<group> (one queue, perm RW) instead of being retried. A second ali-ons consumer subscribed
// to %DLQ%<group> reads it back, with the original msgId in ORIGIN_MESSAGE_ID and reconsumeTimes 3.

const assert = require('node:assert');
const { run, ons, RequestCode } = require('./harness');

run('dead_letter', async h => {
  const topic = await h.topic();
  const group = h.name('CG');
  const producer = await h.makeProducer();
  await h.send(producer, new ons.Message(topic, 'TagD', 'always-fails'), 'always-fails');

  const consumer = await h.makeConsumer({
    consumerGroup: group, consumeFromWhere: 'CONSUME_FROM_FIRST_OFFSET', maxReconsumeTimes: 2,
  });
  const got = [];
  consumer.subscribe(topic, '*', async msg => {
    got.push({ at: Date.now(), msg });
    throw new Error(`failure #${got.length} on purpose`);
  });
  const dlqTopic = `%DLQ%${group}`;
  const sentBack = () => h.wire.entries.filter(e => e.code === RequestCode.CONSUMER_SEND_MSG_BACK && e.res);
  await h.waitFor(() => got.length >= 3 && sentBack().length >= 3, 120000,
    () => `three deliveries and three send-backs (deliveries ${got.map(d => d.msg.reconsumeTimes).join(',')}, ` +
      `send-backs ${sentBack().length})`);
  assert.deepStrictEqual(got.map(d => d.msg.reconsumeTimes), [ 0, 1, 2 ]);
  for (const e of sentBack()) {
    assert.strictEqual(e.res.code, 0, `send-back #${e.id} answered ${e.res.code} ${e.res.remark || ''}`);
    assert.strictEqual(String(e.header.maxReconsumeTimes), '2');
  }
  const originId = got[0].msg.msgId;
  for (const d of got.slice(1)) assert.strictEqual(d.msg.originMessageId, originId);

  const reader = await h.makeConsumer({
    label: 'dlq-reader', consumerGroup: h.name('CGDLQ'), consumeFromWhere: 'CONSUME_FROM_FIRST_OFFSET',
  });
  const dead = h.collect(reader, dlqTopic, '*', 'dlq-reader');
  await h.waitFor(() => dead.length >= 1, 60000, `the message to be readable from ${dlqTopic}`);
  const msg = dead[0].msg;
  assert.strictEqual(msg.topic, dlqTopic);
  assert.strictEqual(msg.body.toString(), 'always-fails');
  assert.strictEqual(msg.tags, 'TagD');
  assert.strictEqual(msg.reconsumeTimes, 3);
  assert.strictEqual(msg.originMessageId, originId, 'ORIGIN_MESSAGE_ID recovers the original msgId');
  assert.strictEqual(msg.properties.RETRY_TOPIC, topic);
  assert.strictEqual(msg.queueId, 0);

  await h.sleep(2000);
  assert.strictEqual(got.length, 3, 'no delivery after the message went to the DLQ');
  assert.strictEqual(dead.length, 1, 'one dead letter');
  h.note(`dead-lettered after ${got.length} deliveries; ORIGIN_MESSAGE_ID ${msg.originMessageId}`);
}, { brokerConf: [ 'messageDelayLevel=1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s' ] });
