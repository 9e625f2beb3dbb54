"""A FIFO topic and an orderly group: a PushConsumer gets every message of a message group in the
order it was sent, even when one consumption fails and is retried, while other groups go on."""
import threading

from harness import check, run, wait_until


def scenario(h):
    sdk = h.sdk
    topic = h.create_topic('FIFO', 4)
    group = h.create_group(orderly=True)
    producer = h.producer([topic])
    message_groups, per_group = ['order-a', 'order-b', 'order-c'], 8
    for i in range(per_group):
        for message_group in message_groups:
            producer.send(h.message(topic, f'{message_group}:{i}', tag='fifo', message_group=message_group))

    lock = threading.Lock()
    seen = {g: [] for g in message_groups}
    failed, wrong_group = [], []

    def consume(message):
        message_group, index = message.body.decode().split(':')
        with lock:
            if message.message_group != message_group:  # a check() here would only reach the SDK's thread
                wrong_group.append((message.message_group, message.body))
            if message_group == 'order-b' and index == '3' and not failed:
                failed.append(message.delivery_attempt)
                return sdk.ConsumeResult.FAILURE  # retried before order-b:4 is handed out
            seen[message_group].append(int(index))
        return sdk.ConsumeResult.SUCCESS

    h.push_consumer(group, {topic: sdk.FilterExpression()}, consume)
    wait_until(lambda: all(len(v) >= per_group for v in seen.values()), 60)
    with lock:
        check(not wrong_group, 'messages arrived with another message group: %r', wrong_group)
        for message_group, indexes in seen.items():
            check(indexes == list(range(per_group)), '%s consumed as %r', message_group, indexes)
        check(failed == [1], 'the failure was injected once: %r', failed)


run('push_fifo', scenario)
