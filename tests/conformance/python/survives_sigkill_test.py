"""Messages the broker acknowledged to a 5.x producer survive SIGKILL of the broker: after a restart
on the same store, a consumer receives every one of them, body intact."""
from harness import check, note, run


def scenario(h):
    topic = h.create_topic('NORMAL', 4)
    producer = h.producer([topic])
    sent = {}
    for i in range(40):
        body = f'durable {i}'.encode()
        sent[producer.send(h.message(topic, body, tag='d')).message_id] = body
    h.shutdown(producer)
    h.broker.kill()
    note('broker killed with SIGKILL after 40 acknowledged sends')
    h.broker.start()
    consumer = h.simple_consumer(h.name('G'), {topic: h.sdk.FilterExpression()})
    got = {m.message_id: m.body for m in h.receive_all(consumer, len(sent), seconds=40)}
    missing = sorted(set(sent) - set(got))
    check(not missing, '%d of %d acknowledged messages lost: %s', len(missing), len(sent), missing[:5])
    changed = [mid for mid in sent if got[mid] != sent[mid]]
    check(not changed, 'bodies changed across the restart: %s', changed)


run('survives_sigkill', scenario)
