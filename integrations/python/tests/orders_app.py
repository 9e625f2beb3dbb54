"""A small "application" as the tests of this directory see one: an order service that publishes
order events with the RocketMQ 5 Python SDK (rocketmq-python-client) and a worker that consumes
them with a SimpleConsumer. It knows nothing of MQDesk or pytest: it is configured with a gRPC
endpoint, a topic and a group, as it would be in production."""

from __future__ import annotations

import json
import time
from typing import Callable, Dict, List, Optional, Tuple

from rocketmq import ClientConfiguration, Credentials, FilterExpression, Message, Producer, SimpleConsumer

Order = Dict[str, object]


def _configuration(endpoint: str, credentials: Optional[Tuple[str, str]]) -> ClientConfiguration:
    access_key, secret_key = credentials or ("", "")
    return ClientConfiguration(endpoint, Credentials(access_key, secret_key), request_timeout=5)


class OrderPublisher:
    """Publishes each order as JSON, tagged with its status and keyed by its id. For a FIFO topic,
    pass fifo=True: the events of one customer then form one message group (delivered in order)."""

    def __init__(self, endpoint: str, topic: str, credentials: Optional[Tuple[str, str]] = None,
                 fifo: bool = False):
        self.topic = topic
        self.fifo = fifo
        self._producer = Producer(_configuration(endpoint, credentials), (topic,))
        self._producer.startup()

    def publish(self, order: Order) -> str:
        message = Message()
        message.topic = self.topic
        message.body = json.dumps(order, sort_keys=True).encode()
        message.tag = str(order.get("status", "created"))
        message.keys = str(order["id"])
        if self.fifo:
            message.message_group = str(order["customer"])
        return self._producer.send(message).message_id

    def close(self) -> None:
        self._producer.shutdown()

    def __enter__(self) -> "OrderPublisher":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class OrderWorker:
    """Receives order events of the given statuses (tags; None: all), hands each to ``handle`` and
    acks it once handled."""

    def __init__(self, endpoint: str, topic: str, group: str, handle: Callable[[Order], None],
                 statuses: Optional[List[str]] = None, credentials: Optional[Tuple[str, str]] = None,
                 await_seconds: int = 2):
        expression = FilterExpression("||".join(statuses)) if statuses else FilterExpression()
        self._handle = handle
        self._consumer = SimpleConsumer(_configuration(endpoint, credentials), group, {topic: expression},
                                        await_duration=await_seconds)
        self._consumer.startup()

    def work(self, until_count: int, within_seconds: float = 30.0, invisible_seconds: int = 15) -> int:
        """Handles events until until_count were handled or within_seconds passed; returns how many."""
        handled = 0
        deadline = time.monotonic() + within_seconds
        while handled < until_count and time.monotonic() < deadline:
            for message in self._consumer.receive(16, invisible_seconds):
                self._handle(json.loads(message.body))
                self._consumer.ack(message)
                handled += 1
        return handled

    def close(self) -> None:
        self._consumer.shutdown()

    def __enter__(self) -> "OrderWorker":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
