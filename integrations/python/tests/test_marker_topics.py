"""The marker's topics exist before the test starts: with autoCreateTopicEnable=false the
declared topics (with their queue counts and message types) are there, and nothing else is."""

import json

import pytest

from orders_app import OrderPublisher, OrderWorker


def _topic_table(broker):
    with open(broker.store_dir / "config" / "topics.json") as f:
        return json.load(f)["topicConfigTable"]


@pytest.mark.mqdesk(topics=["declared:2", ("payments", 3, "FIFO")], groups=["declared-workers"],
                    config={"autoCreateTopicEnable": False}, sync_flush=True)
def test_only_declared_topics_exist(mqdesk_broker):
    conf = mqdesk_broker.config_path.read_text()
    assert "autoCreateTopicEnable=false" in conf and "flushDiskType=SYNC_FLUSH" in conf

    topics = _topic_table(mqdesk_broker)
    assert (topics["declared"]["readQueueNums"], topics["declared"]["writeQueueNums"]) == (2, 2)
    assert topics["payments"]["writeQueueNums"] == 3
    assert topics["payments"]["attributes"].get("message.type") == "FIFO"

    with OrderPublisher(mqdesk_broker.grpc_endpoint, "declared") as publisher:
        publisher.publish({"id": 1, "status": "created"})
    handled = []
    with OrderWorker(mqdesk_broker.grpc_endpoint, "declared", "declared-workers", handled.append) as worker:
        assert worker.work(until_count=1) == 1
    assert handled == [{"id": 1, "status": "created"}]

    undeclared = OrderPublisher(mqdesk_broker.grpc_endpoint, "undeclared")
    try:
        with pytest.raises(Exception, match="undeclared"):
            undeclared.publish({"id": 2})
    finally:
        undeclared.close()
    assert "undeclared" not in _topic_table(mqdesk_broker)


@pytest.mark.mqdesk(topics=["payments:2:FIFO"], config={"autoCreateTopicEnable": False})
def test_a_fifo_topic_refuses_plain_messages(mqdesk_broker):
    publisher = OrderPublisher(mqdesk_broker.grpc_endpoint, "payments", fifo=False)
    try:
        with pytest.raises(Exception, match="FIFO"):
            publisher.publish({"id": 1})
    finally:
        publisher.close()
