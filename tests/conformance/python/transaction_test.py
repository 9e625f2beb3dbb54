"""Transactional messages through the 5.x endpoint: a committed one is delivered, a rolled-back one
never is, and ones left open are checked back over the producer's telemetry stream (orphaned-
transaction recovery): the checker's COMMIT delivers, its ROLLBACK discards."""
import threading
import time

from harness import check, run


def scenario(h):
    sdk = h.sdk
    topic = h.create_topic('TRANSACTION', 2)
    lock = threading.Lock()
    checked = []

    class Checker(sdk.TransactionChecker):
        def check(self, message):
            with lock:
                checked.append(message.message_id)
            decide = message.properties.get('decide')
            return sdk.TransactionResolution.COMMIT if decide == 'commit' else sdk.TransactionResolution.ROLLBACK

    producer = h.producer([topic], Checker())
    consumer = h.simple_consumer(h.name('G'), {topic: sdk.FilterExpression()}, await_duration=2)

    def send(body, decide):
        transaction = producer.begin_transaction()
        receipt = producer.send(h.message(topic, body, tag='tx', properties={'decide': decide}), transaction)
        return transaction, receipt.message_id

    committed_tx, committed = send('committed', 'commit')
    committed_tx.commit()
    rolled_back_tx, rolled_back = send('rolled back', 'commit')
    rolled_back_tx.rollback()
    _, orphan_commit = send('orphan, checker commits', 'commit')
    _, orphan_rollback = send('orphan, checker rolls back', 'rollback')

    got = h.receive_all(consumer, 1, seconds=6)
    check([m.body for m in got] == [b'committed'], 'only the committed message so far: %r', [m.body for m in got])
    # The broker checks open transactions after transactionTimeOut (broker_conf below).
    later = h.receive_all(consumer, 1, seconds=40)
    check([m.body for m in later] == [b'orphan, checker commits'], 'the orphan the checker committed: %r',
          [m.body for m in later])
    until = time.monotonic() + 10
    while orphan_rollback not in checked and time.monotonic() < until:
        time.sleep(0.2)
    with lock:
        check(orphan_commit in checked and orphan_rollback in checked, 'the checker was asked about both orphans')
        check(committed not in checked and rolled_back not in checked, 'resolved transactions are not checked')
    none = h.receive_all(consumer, 1, seconds=6)
    check(not none, 'rolled-back messages are never delivered: %r', [m.body for m in none])


run('transaction', scenario, broker_conf=['transactionTimeOut=2000', 'transactionCheckInterval=1000'])
