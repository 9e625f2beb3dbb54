"""The Python 5.x SDK with tls_enable=True against the endpoint's default TLS (permissive, the
self-signed certificate the broker made in <store>/config/tls), trusted as gRPC applications trust
a CA: GRPC_DEFAULT_SSL_ROOTS_FILE_PATH, read by grpcio when it first needs its roots. A TLS producer
and a TLS SimpleConsumer send and receive; a plaintext producer beside them on the same port is
served too."""
import os
import re

from harness import check, run  # first: it enters the venv that holds the SDK


def scenario(h):
    sdk = h.sdk
    os.environ['GRPC_DEFAULT_SSL_ROOTS_FILE_PATH'] = os.path.join(h.broker.store_dir, 'config', 'tls',
                                                                  'mqdesk-selfsigned.pem')
    topic = h.create_topic('NORMAL', 2)
    tls_producer = h._track('producer(tls)', sdk.Producer(h.configuration(), (topic,), None, tls_enable=True))
    for i in range(5):
        tls_producer.send(h.message(topic, f'tls {i}'))
    plain_producer = h.producer([topic])
    plain_producer.send(h.message(topic, 'plain'))
    group = h.name('G')
    consumer = h._track(f'simple({group}, tls)', sdk.SimpleConsumer(
        h.configuration(), group, {topic: sdk.FilterExpression()}, await_duration=5, tls_enable=True))
    got = h.receive_all(consumer, 6, seconds=30)
    bodies = sorted(m.body.decode() for m in got)
    check(bodies == sorted([f'tls {i}' for i in range(5)] + ['plain']),
          'over TLS the consumer got %s', bodies)
    status = h.admin('brokerStatus', '-b', h.broker.addr)
    accepted = re.search(r'grpcTlsConnectionsAccepted\s*:\s*(\d+)', status)
    check(accepted and int(accepted.group(1)) >= 1, 'the broker counted no TLS connection: %s', status)


run('tls', scenario)
