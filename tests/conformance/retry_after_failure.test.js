'use strict';
// A handler that throws gets the message again: ali-ons sends it back (CONSUMER_SEND_MSG_BACK,
// delayLevel 0), the broker parks it for delay level 3 + reconsumeTimes in SCHEDULE_TOPIC_XXXX and
// then stores it in %RETRY%<group>, which ali-ons consumes and hands to the original topic's
// handler with reconsumeTimes 1, the original msgId in ORIGIN_MESSAGE_ID — and not before the
// level's delay (a lower bound only; the broker's level 3 is 2 s here).
// ali-ons looks up the %RETRY% route on its 30 s timer (the topic appears with the first
// heartbeat), so the retry typically arrives after ~30 s.

const assert = require('node:assert');
const { run, ons, RequestCode } = require('./harness');

const LEVEL3_MS = 2000;

run('retry_after_failure', async h => {
  const topic = await h.topic();
  const group = h.name('CG');
  const producer = await h.makeProducer();
  await h.send(producer, new ons.Message(topic, 'TagR', 'fail-once'), 'fail-once');

  const consumer = await h.makeConsumer({ consumerGroup: group, consumeFromWhere: 'CONSUME_FROM_FIRST_OFFSET' });
  const got = [];
  consumer.subscribe(topic, '*', async msg => {
    got.push({ at: Date.now(), msg });
    if (got.length === 1) throw new Error('first delivery fails on purpose');
  });
  await h.waitFor(() => got.length >= 2, 90000, () => `the failed message to be delivered again (deliveries: ${got.length})`);

  const [ first, second ] = got;
  assert.strictEqual(first.msg.reconsumeTimes, 0);
  assert.strictEqual(second.msg.reconsumeTimes, 1, 'the retry carries reconsumeTimes + 1');
  assert.strictEqual(second.msg.body.toString(), 'fail-once');
  assert.strictEqual(second.msg.topic, topic, 'ali-ons hands the retry over under its original topic (RETRY_TOPIC)');
  assert.strictEqual(second.msg.tags, 'TagR');
  assert.strictEqual(second.msg.originMessageId, first.msg.msgId, 'ORIGIN_MESSAGE_ID is the first delivery\'s msgId');
  assert.notStrictEqual(second.msg.msgId, first.msg.msgId);
  assert.ok(second.msg.storeTimestamp >= first.at + LEVEL3_MS,
    `the retry was stored ${second.msg.storeTimestamp - first.at} ms after the failure, before level 3's ${LEVEL3_MS} ms`);

  const backs = h.wire.entries.filter(e => e.code === RequestCode.CONSUMER_SEND_MSG_BACK);
  assert.strictEqual(backs.length, 1, 'one send-back');
  assert.strictEqual(backs[0].res && backs[0].res.code, 0, 'CONSUMER_SEND_MSG_BACK answered SUCCESS (no fallback re-publish)');
  assert.strictEqual(String(backs[0].header.delayLevel), '0');
  await h.sleep(1500);
  assert.strictEqual(got.length, 2, 'a successful retry is not delivered again');
  h.note(`retried after ${second.at - first.at} ms with reconsumeTimes ${second.msg.reconsumeTimes}`);
}, { brokerConf: [ 'messageDelayLevel=1s 1s 2s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s' ] });
