"""pytest-mqdesk: a throwaway MQDesk broker (RocketMQ-compatible NameServer, broker and RocketMQ 5
gRPC endpoint in one process) for your tests.

The pytest plugin (fixtures ``mqdesk_broker``, ``mqdesk_broker_module``, ``mqdesk_broker_session``,
``mqdesk_broker_factory``, the ``mqdesk`` marker) loads by itself once this package is installed;
``start_broker`` is for custom fixtures and code outside pytest.
"""

from .broker import (BrokerNotFoundError, BrokerStartError, BrokerStopError, MQDeskBroker, MQDeskError,
                     find_broker_binary, start_broker)

__all__ = [
    "BrokerNotFoundError",
    "BrokerStartError",
    "BrokerStopError",
    "MQDeskBroker",
    "MQDeskError",
    "find_broker_binary",
    "start_broker",
]
__version__ = "0.1.0"
