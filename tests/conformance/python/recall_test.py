"""Recalling a delayed message through the 5.x endpoint (RecallMessage): each delayed send's
receipt carries a recall handle; the recalled message is never delivered, the others arrive at
their time; recalling on a topic that is not DELAY, with a handle that is not one, or after the
message was delivered is refused."""
import time

from harness import check, run


def refusal(call):
    try:
        call()
    except Exception as e:  # the SDK raises its own exception types, named by the response code
        return str(e)
    return None


def scenario(h):
    topic = h.create_topic('DELAY', 2)
    normal = h.create_topic('NORMAL', 2)
    producer = h.producer([topic, normal])
    due = time.time() + 5
    receipts = {body: producer.send(h.message(topic, body, tag='R', delivery_seconds=due))
                for body in ('kept', 'recalled', 'also kept')}
    for body, receipt in receipts.items():
        check(receipt.recall_handle, 'the receipt of delayed message %r has no recall handle', body)
    plain = producer.send(h.message(normal, 'now', tag='R'))
    check(not plain.recall_handle, 'a message for now has a recall handle: %r', plain.recall_handle)

    recalled_id = producer.recall_message(topic, receipts['recalled'].recall_handle)
    check(recalled_id == receipts['recalled'].message_id, 'recall answered message id %r, sent %r', recalled_id,
          receipts['recalled'].message_id)
    why = refusal(lambda: producer.recall_message(normal, receipts['kept'].recall_handle))
    check(why and '40014' in why, 'recalling on a NORMAL topic (MESSAGE_PROPERTY_CONFLICT_WITH_TYPE): %s', why)
    why = refusal(lambda: producer.recall_message(topic, 'bm90IGEgaGFuZGxl'))
    check(why and 'recall handle is invalid' in why, 'recalling with a handle that is not one: %s', why)

    consumer = h.simple_consumer(h.name('G'), {topic: h.sdk.FilterExpression()}, await_duration=2)
    got = h.receive_all(consumer, 2, seconds=30)
    check(sorted(m.body for m in got) == [b'also kept', b'kept'], 'delivered: %r', sorted(m.body for m in got))
    check(time.time() >= int(due) - 0.5, 'delivered %.1f s before their time', int(due) - time.time())
    late = h.receive_all(consumer, 1, seconds=4)
    check(not late, 'the recalled message was delivered: %r', [m.body for m in late])
    why = refusal(lambda: producer.recall_message(topic, receipts['kept'].recall_handle))
    check(why and 'timestamp invalid' in why, 'recalling a delivered message: %s', why)


run('recall', scenario)
