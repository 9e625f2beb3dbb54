'use strict';
// Delay levels as ali-ons sends them (msg.delayTimeLevel → property DELAY): a level-3 message sent
// first and a level-1 message sent after it arrive level-1 first, each no earlier than its level's
// delay after its send (lower bounds only). The broker's table is short here: level 1 = 2 s,
// level 3 = 5 s. The delivered messages keep their tags and keys.

const assert = require('node:assert');
const { run, ons } = require('./harness');

const DELAY_MS = { 1: 2000, 3: 5000 };

run('delay_levels', async h => {
  const topic = await h.topic();
  const group = h.name('CG');
  const producer = await h.makeProducer();
  // The consumer is running before the sends: what is delayed is the delivery, not the send.
  const consumer = await h.makeConsumer({ consumerGroup: group, consumeFromWhere: 'CONSUME_FROM_FIRST_OFFSET' });
  const got = h.collect(consumer, topic, '*');

  const sentAt = {};
  for (const level of [ 3, 1 ]) {
    const msg = new ons.Message(topic, `TagL${level}`, `level-${level}`);
    msg.keys = [ `key-${level}` ];
    msg.delayTimeLevel = level;
    sentAt[level] = Date.now();
    await h.send(producer, msg, `level-${level}`);
  }
  await h.waitFor(() => got.length >= 2, 60000, () => `both delayed messages (got ${got.map(d => d.msg.body).join(',')})`);
  await h.sleep(1000);

  assert.deepStrictEqual(got.map(d => d.msg.body.toString()), [ 'level-1', 'level-3' ], 'level 1 arrives before level 3');
  for (const d of got) {
    const level = Number(d.msg.body.toString().split('-')[1]);
    assert.strictEqual(d.msg.tags, `TagL${level}`);
    assert.strictEqual(d.msg.properties.KEYS, `key-${level}`);
    assert.strictEqual(d.msg.topic, topic);
    assert.ok(d.at - sentAt[level] >= DELAY_MS[level],
      `level ${level} delivered ${d.at - sentAt[level]} ms after its send, before its ${DELAY_MS[level]} ms`);
    assert.ok(d.msg.storeTimestamp - sentAt[level] >= DELAY_MS[level],
      `level ${level} stored in ${topic} ${d.msg.storeTimestamp - sentAt[level]} ms after its send`);
    h.note(`level ${level}: delivered ${d.at - sentAt[level]} ms after its send`);
  }
}, { brokerConf: [ 'messageDelayLevel=2s 1s 5s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s 1s' ] });
