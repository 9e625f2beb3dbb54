"""Delayed delivery through the 5.x endpoint: a message with a delivery timestamp on a DELAY topic
is not received before its time and is received soon after it; an undelayed one sent with it is
received at once."""
import time

from harness import check, run


def scenario(h):
    topic = h.create_topic('DELAY', 2)
    producer = h.producer([topic])
    delay_s = 6
    due = time.time() + delay_s
    delayed = producer.send(h.message(topic, 'delayed', tag='D', delivery_seconds=due)).message_id
    consumer = h.simple_consumer(h.name('G'), {topic: h.sdk.FilterExpression()}, await_duration=2)

    # Polls for 2 s with 2 s long polls, so the last one ends ~4 s in: before int(due), the whole
    # second the SDK sends (it drops the fraction), which is at least delay_s - 1 s away.
    early = h.receive_all(consumer, 1, seconds=delay_s - 4)
    check(not early, 'received %.1f s before its delivery time: %s', due - time.time(), [m.body for m in early])
    got = h.receive_all(consumer, 1, seconds=delay_s + 20)
    arrived = time.time()
    check(len(got) == 1 and got[0].message_id == delayed, 'the delayed message arrived: %s', [m.body for m in got])
    # The timer wheel has one-second slots; the store's timestamp may round down within the second.
    check(arrived >= due - 1.0, 'arrived %.2f s before its delivery time', due - arrived)
    check(arrived <= due + 10, 'arrived %.2f s after its delivery time', arrived - due)
    check(got[0].delivery_timestamp and abs(got[0].delivery_timestamp / 1000 - int(due)) <= 1,
          'the delivery timestamp travels with the message: %r for %d', got[0].delivery_timestamp, int(due))


run('delay', scenario)
