"""Normal messages through the 5.x endpoint: a Producer's sends carry body, tag, keys and user
properties to a SimpleConsumer, whose tag filter lets only its tag through; acked messages are not
delivered again; a group with an SQL92 filter gets the messages whose properties match; and a
group subscribed to everything receives the whole topic on its own."""
from harness import check, run  # first: it enters the venv that holds the SDK
from rocketmq.grpc_protocol import FilterType  # noqa: E402


def scenario(h):
    sdk = h.sdk
    topic = h.create_topic('NORMAL', 4)
    producer = h.producer([topic])
    sent = {}
    for i in range(12):
        tag = 'TagA' if i % 3 else 'TagB'
        receipt = producer.send(h.message(topic, f'python {i}', tag=tag, keys=[f'key-{i}', 'common'],
                                          properties={'index': str(i), 'lang': 'python'}))
        check(receipt.message_id, 'send %d returned no message id', i)
        sent[receipt.message_id] = (i, tag)
    tag_a = {mid for mid, (_, tag) in sent.items() if tag == 'TagA'}

    filtered = h.simple_consumer(h.name('G'), {topic: sdk.FilterExpression('TagA')})
    got = h.receive_all(filtered, len(tag_a), seconds=30)
    check({m.message_id for m in got} == tag_a, 'TagA consumer got %s, wanted %s',
          sorted(m.message_id for m in got), sorted(tag_a))
    for m in got:
        i, tag = sent[m.message_id]
        check(m.body == f'python {i}'.encode(), 'body of %d: %r', i, m.body)
        check(m.tag == tag, 'tag of %d: %r', i, m.tag)
        check(m.keys == {f'key-{i}', 'common'}, 'keys of %d: %r', i, m.keys)
        check(m.properties.get('index') == str(i) and m.properties.get('lang') == 'python',
              'properties of %d: %r', i, m.properties)
        check(m.topic == topic, 'topic of %d: %r', i, m.topic)
        check(m.delivery_attempt == 1, 'first delivery of %d counts attempt %r', i, m.delivery_attempt)
        check(m.born_timestamp and m.born_host, 'born timestamp and host of %d: %r %r', i, m.born_timestamp,
              m.born_host)
    again = filtered.receive(16, 15)
    check(not again, 'acked messages delivered again: %s', [m.body for m in again])

    sql = h.simple_consumer(h.name('G'), {topic: sdk.FilterExpression("lang = 'python' AND index >= 8",
                                                                       FilterType.SQL)})
    matching = {mid for mid, (i, _) in sent.items() if i >= 8}
    sql_got = h.receive_all(sql, len(matching), seconds=30)
    check({m.message_id for m in sql_got} == matching, 'the SQL92 group got indexes %s, wanted 8..11',
          sorted(int(m.properties['index']) for m in sql_got))

    everything = h.simple_consumer(h.name('G'), {topic: sdk.FilterExpression()})
    all_got = h.receive_all(everything, len(sent), seconds=30)
    check({m.message_id for m in all_got} == set(sent), 'a second group received %d of %d', len(all_got), len(sent))


run('producer_simple_consumer', scenario, broker_conf=['enablePropertyFilter=true'])
