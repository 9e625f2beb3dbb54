"""Brokers side by side: eight start_broker calls at once, from eight threads, each on ports the
broker picked itself; all are ready with distinct ports that accept connections, and all stop
cleanly."""

import socket
from concurrent.futures import ThreadPoolExecutor, wait

from pytest_mqdesk import start_broker

COUNT = 8


def _port(address):
    return int(address.rsplit(":", 1)[1])


def _connect(address):
    host, port = address.rsplit(":", 1)
    socket.create_connection((host, int(port)), timeout=5).close()


def test_eight_brokers_start_side_by_side(tmp_path, mqdesk_broker_binary):
    with ThreadPoolExecutor(COUNT) as pool:
        starts = [pool.submit(start_broker, tmp_path / f"broker-{i}", binary=mqdesk_broker_binary,
                              topics=[f"topic-{i}:2"], groups=[f"group-{i}"]) for i in range(COUNT)]
        wait(starts)
        brokers = [s.result() for s in starts if s.exception() is None]
        try:
            for s in starts:
                s.result()  # the first start that failed, with the broker's stderr
            addresses = [a for b in brokers for a in (b.namesrv_addr, b.broker_addr, b.grpc_endpoint)]
            assert len({_port(a) for a in addresses}) == 3 * COUNT, addresses
            assert len({b.store_dir for b in brokers}) == COUNT
            for address in addresses:
                _connect(address)
        finally:
            stops = [pool.submit(b.stop) for b in brokers]
            wait(stops)
        for stop in stops:
            stop.result()  # BrokerStopError unless it exited 0 without leaving an abort file
    assert not any(b.running for b in brokers)
