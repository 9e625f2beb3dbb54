"""A PushConsumer that takes longer than the invisible time to consume a message: the endpoint
renews the receipt while it consumes (auto_renew, as the Java proxy does), so the message is
consumed once and its ack, made with the handle first given, settles it for good. The invisible
time here is 3 s (defaultInvisibleTimeMills) and each consumption takes 8 s: without renewals the
message would come back during the first consumption and the late ack would be refused."""
import threading
import time

from harness import check, run, wait_until

CONSUME_SECONDS = 8


def scenario(h):
    sdk = h.sdk
    topic = h.create_topic('NORMAL', 2)
    producer = h.producer([topic])
    sent = {producer.send(h.message(topic, f'slow {i}', tag='S')).message_id for i in range(3)}

    lock = threading.Lock()
    calls, done = [], set()

    def consume(message):
        with lock:
            calls.append((message.message_id, message.delivery_attempt))
        time.sleep(CONSUME_SECONDS)
        with lock:
            done.add(message.message_id)
        return sdk.ConsumeResult.SUCCESS

    h.push_consumer(h.create_group(), {topic: sdk.FilterExpression()}, consume)
    wait_until(lambda: done >= sent, 60)
    time.sleep(5)  # long enough for a message whose ack was lost to come back (3 s)
    with lock:
        check(done >= sent, 'consumed %d of %d', len(done), len(sent))
        ids = [mid for mid, _ in calls]
        check(sorted(ids) == sorted(sent), 'each message consumed once, got %r', calls)
        check(all(attempt == 1 for _, attempt in calls), 'no redelivery: %r', calls)


run('push_slow_consumer', scenario, broker_conf=['defaultInvisibleTimeMills=3000', 'renewAheadTimeMillis=1500',
                                                 'renewSchedulePeriodMillis=200'])
