'use strict';
// Transactional messages through the 5.x endpoint: a committed one is delivered, a rolled-back
// one never is, and one left open is checked back over the producer's telemetry stream (orphaned-
// transaction recovery), which the SDK's checker resolves.
const assert = require('node:assert/strict');
const { run, sleep } = require('./harness');

run('transaction', async h => {
  const topic = await h.createTopic('TRANSACTION', 2);
  const checked = [];
  const producer = await h.producer({
    topics: [ topic ],
    checker: {
      async check(view) {
        checked.push(view.messageId);
        return view.properties.get('decide') === 'commit' ? h.TransactionResolution.COMMIT
          : h.TransactionResolution.ROLLBACK;
      },
    },
  });
  const consumer = await h.simpleConsumer(h.name('G'), new Map([ [ topic, '*' ] ]));

  const send = async (label, decide) => {
    const transaction = producer.beginTransaction();
    const receipt = await producer.send({ topic, tag: 'tx', body: Buffer.from(label),
      properties: new Map([ [ 'decide', decide ] ]) }, transaction);
    return { transaction, receipt };
  };
  const committed = await send('committed', 'commit');
  await committed.transaction.commit();
  const rolledBack = await send('rolled back', 'commit');
  await rolledBack.transaction.rollback();
  const orphanCommit = await send('orphan, checker commits', 'commit');
  const orphanRollback = await send('orphan, checker rolls back', 'rollback');

  const got = await h.receiveAll(consumer, 1, { ms: 8000 });
  assert.deepEqual(got.map(v => v.body.toString()), [ 'committed' ], 'only the committed message so far');

  // The broker checks open transactions after transactionTimeOut (broker.conf below).
  const later = await h.receiveAll(consumer, 1, { ms: 40000 });
  assert.deepEqual(later.map(v => v.body.toString()), [ 'orphan, checker commits' ],
    'the orphan the checker committed is delivered');
  assert.ok(checked.includes(orphanCommit.receipt.messageId), 'the checker was asked about the orphan');
  await sleep(4000);
  assert.ok(checked.includes(orphanRollback.receipt.messageId), 'and about the one it rolled back');
  const none = await consumer.receive(16, 10000);
  assert.equal(none.length, 0, `rolled-back messages are never delivered: ${none.map(v => v.body.toString())}`);
  assert.ok(!checked.includes(committed.receipt.messageId) && !checked.includes(rolledBack.receipt.messageId),
    'resolved transactions are not checked');
}, { brokerConf: [ 'transactionTimeOut=2000', 'transactionCheckInterval=1000' ] });
