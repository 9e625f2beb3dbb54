"""A SimpleConsumer's un-acked message comes back after its invisible duration with its delivery
attempt counted up; change_invisible_duration hands out a new receipt handle that acks; an ack with
the handle of an earlier delivery is refused (INVALID_RECEIPT_HANDLE), nothing is lost or doubled."""
import time

from harness import check, run


def scenario(h):
    topic = h.create_topic('NORMAL', 2)
    producer = h.producer([topic])
    first = producer.send(h.message(topic, 'left un-acked', tag='T')).message_id
    second = producer.send(h.message(topic, 'made visible sooner', tag='T')).message_id

    consumer = h.simple_consumer(h.name('G'), {topic: h.sdk.FilterExpression()})
    got = h.receive_all(consumer, 2, ack=False, invisible=10)
    by_id = {m.message_id: m for m in got}
    check(set(by_id) == {first, second}, 'both messages received: %s', sorted(by_id))
    check(by_id[first].delivery_attempt == 1, 'first delivery attempt %r', by_id[first].delivery_attempt)

    shortened = by_id[second]
    old_handle = shortened.receipt_handle
    consumer.change_invisible_duration(shortened, 1)
    check(shortened.receipt_handle and shortened.receipt_handle != old_handle,
          'change_invisible_duration gives a new receipt handle')

    t0 = time.monotonic()
    again = h.receive_all(consumer, 1, seconds=9, ack=False, invisible=20)
    check(len(again) == 1 and again[0].message_id == second,
          'the message made visible in 1 s is redelivered first: %s', [m.body for m in again])
    check(again[0].delivery_attempt == 2, 'a redelivery counts its attempt: %r', again[0].delivery_attempt)
    check(again[0].body == b'made visible sooner', 'body of the redelivery: %r', again[0].body)
    consumer.ack(again[0])

    later = h.receive_all(consumer, 1, seconds=30, ack=False, invisible=20)
    check(len(later) == 1 and later[0].message_id == first,
          'the un-acked message is redelivered after its invisible time: %s', [m.body for m in later])
    check(later[0].delivery_attempt == 2, 'its delivery attempt: %r', later[0].delivery_attempt)
    check(time.monotonic() - t0 >= 7, 'redelivered %.1f s after the change, before its 10 s were up',
          time.monotonic() - t0)
    try:
        consumer.ack(by_id[first])
        refused = None
    except Exception as e:  # the SDK raises its own exception types, named by the response code
        refused = e
    check(refused is not None, 'acking with the handle of the expired delivery was accepted')
    check('40013' in str(refused) or 'receipt' in str(refused).lower(), 'the refusal names the handle: %s', refused)
    consumer.ack(later[0])

    time.sleep(1.5)
    none = consumer.receive(16, 10)
    check(not none, 'acked messages stay acked: %s', [m.body for m in none])


run('redelivery_and_invisible', scenario)
