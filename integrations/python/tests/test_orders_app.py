"""The application's tests, as its authors would write them: publisher and worker talk to a real
broker through its gRPC endpoint, one broker per test (mqdesk_broker), configured by markers."""

import pytest

from orders_app import OrderPublisher, OrderWorker

pytestmark = pytest.mark.mqdesk(topics=["orders:4"], groups=["order-workers"])


def test_published_orders_reach_the_worker(mqdesk_broker):
    orders = [{"id": i, "customer": f"c{i % 2}", "status": "created", "total": 10 * i} for i in range(6)]
    with OrderPublisher(mqdesk_broker.grpc_endpoint, "orders") as publisher:
        message_ids = {publisher.publish(order) for order in orders}
    assert len(message_ids) == len(orders)

    handled = []
    with OrderWorker(mqdesk_broker.grpc_endpoint, "orders", "order-workers", handled.append) as worker:
        assert worker.work(until_count=len(orders)) == len(orders)
    assert sorted(handled, key=lambda order: order["id"]) == orders


def test_the_worker_filters_by_status(mqdesk_broker):
    with OrderPublisher(mqdesk_broker.grpc_endpoint, "orders") as publisher:
        for i, status in enumerate(["created", "paid", "created", "shipped", "paid"]):
            publisher.publish({"id": i, "status": status})

    paid = []
    with OrderWorker(mqdesk_broker.grpc_endpoint, "orders", "order-workers", paid.append,
                     statuses=["paid"]) as worker:
        assert worker.work(until_count=2) == 2
    assert sorted(order["id"] for order in paid) == [1, 4]


@pytest.mark.mqdesk(topics=["orders-fifo:2:FIFO"], groups=["fifo-workers:orderly"])
def test_fifo_topic_keeps_each_customers_order(mqdesk_broker):
    events = [{"id": n, "customer": customer, "status": status}
              for n, (customer, status) in enumerate(
                  [("alice", "created"), ("bob", "created"), ("alice", "paid"), ("bob", "paid"),
                   ("alice", "shipped")])]
    with OrderPublisher(mqdesk_broker.grpc_endpoint, "orders-fifo", fifo=True) as publisher:
        for event in events:
            publisher.publish(event)

    handled = []
    with OrderWorker(mqdesk_broker.grpc_endpoint, "orders-fifo", "fifo-workers", handled.append) as worker:
        assert worker.work(until_count=len(events)) == len(events)
    for customer in ("alice", "bob"):
        assert [e["status"] for e in handled if e["customer"] == customer] == \
               [e["status"] for e in events if e["customer"] == customer]


@pytest.mark.mqdesk(acl_user=("admin", "secret12"))  # topics and groups: the module's marker
def test_with_acl_only_the_user_gets_through(mqdesk_broker):
    assert mqdesk_broker.acl_user == ("admin", "secret12")
    for credentials in (None, ("admin", "wrong-password")):
        publisher = OrderPublisher(mqdesk_broker.grpc_endpoint, "orders", credentials=credentials)
        try:
            with pytest.raises(Exception, match="route"):
                publisher.publish({"id": 0})
        finally:
            publisher.close()

    with OrderPublisher(mqdesk_broker.grpc_endpoint, "orders", credentials=mqdesk_broker.acl_user) as publisher:
        publisher.publish({"id": 1, "status": "paid"})
    handled = []
    with OrderWorker(mqdesk_broker.grpc_endpoint, "orders", "order-workers", handled.append,
                     credentials=mqdesk_broker.acl_user) as worker:
        assert worker.work(until_count=1) == 1
    assert handled == [{"id": 1, "status": "paid"}]


def test_a_restarted_broker_still_has_the_orders(mqdesk_broker):
    """sync_flush is not needed for a clean restart; the ports change, so clients are made anew."""
    with OrderPublisher(mqdesk_broker.grpc_endpoint, "orders") as publisher:
        publisher.publish({"id": 42, "status": "created"})
    mqdesk_broker.restart()
    handled = []
    with OrderWorker(mqdesk_broker.grpc_endpoint, "orders", "order-workers", handled.append) as worker:
        assert worker.work(until_count=1) == 1
    assert handled == [{"id": 42, "status": "created"}]
