"""A concurrent PushConsumer consumes every message of a topic; a message whose consumption
returns FAILURE is delivered again with its delivery attempt counted up, and is then consumed."""
import threading

from harness import check, run, wait_until


def scenario(h):
    sdk = h.sdk
    topic = h.create_topic('NORMAL', 4)
    producer = h.producer([topic])
    sent = {producer.send(h.message(topic, f'push {i}', tag='P')).message_id: f'push {i}'.encode()
            for i in range(30)}
    failing = next(iter(sent))

    lock = threading.Lock()
    consumed, attempts, doubles = {}, {}, []

    def consume(message):
        with lock:
            attempts.setdefault(message.message_id, []).append(message.delivery_attempt)
            if message.message_id == failing and len(attempts[failing]) == 1:
                return sdk.ConsumeResult.FAILURE
            if message.message_id in consumed:  # a check() here would only reach the SDK's thread
                doubles.append(message.message_id)
            consumed[message.message_id] = message.body
        return sdk.ConsumeResult.SUCCESS

    h.push_consumer(h.create_group(retry_max_times=3), {topic: sdk.FilterExpression('P')}, consume)
    wait_until(lambda: len(consumed) == len(sent), 60)
    with lock:
        check(not doubles, 'consumed twice after SUCCESS: %s', doubles)
        check(consumed == sent, 'consumed %d of %d (missing %s)', len(consumed), len(sent),
              sorted(set(sent) - set(consumed)))
        check(attempts[failing] == [1, 2], 'the failed message was delivered with attempts %r', attempts[failing])
        others = {mid: a for mid, a in attempts.items() if mid != failing and a != [1]}
        check(not others, 'messages that succeeded at once were delivered again: %r', others)


run('push_consumer', scenario)
