"""The pytest plugin (entry point ``mqdesk`` in the ``pytest11`` group): fixtures that start a
throwaway mqdesk-broker, the ``mqdesk`` marker, the ``--mqdesk-broker`` option and ini values.

Fixtures:

- ``mqdesk_broker``: one broker per test, configured by the test's ``@pytest.mark.mqdesk(...)``
  (closest marker first: function, then class, then module ``pytestmark``, per keyword);
- ``mqdesk_broker_module``: one broker per test module, configured by the module's (or the
  class's) marker, not the test function's;
- ``mqdesk_broker_session``: one broker for the whole run, configured by the
  ``mqdesk_session_options`` fixture (override it in conftest.py to return start_broker's keywords);
- ``mqdesk_broker_factory``: a function starting more brokers in the test (same keywords as the
  marker), each stopped at the test's end;
- ``mqdesk_broker_binary``: the path of the mqdesk-broker that runs (session scope).

Every broker gets a fresh directory from tmp_path_factory and its own free ports; at teardown it is
stopped with SIGTERM, and a stop that is not clean (not exit 0 within the timeout, or an ``abort``
file left) is reported as an error of the test that owned it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List

import pytest

from .broker import (DEFAULT_READY_TIMEOUT, DEFAULT_STOP_TIMEOUT, BrokerNotFoundError, BrokerStopError,
                     MQDeskBroker, MQDeskError, find_broker_binary, start_broker)

MARKER_KEYWORDS = ("topics", "groups", "config", "acl_user", "sync_flush")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mqdesk", "MQDesk broker fixtures")
    group.addoption("--mqdesk-broker", dest="mqdesk_broker", metavar="PATH", default=None,
                    help="the mqdesk-broker executable to run (default: the mqdesk_broker ini value, "
                         "$MQDESK_BROKER, mqdesk-broker on PATH, /usr/bin/mqdesk-broker)")
    parser.addini("mqdesk_broker", default=None,
                  help="the mqdesk-broker executable (a path relative to the ini file's folder, or a name on PATH)")
    parser.addini("mqdesk_ready_timeout", default=str(DEFAULT_READY_TIMEOUT),
                  help=f"seconds to wait for a broker's ready line (default {DEFAULT_READY_TIMEOUT:g})")
    parser.addini("mqdesk_stop_timeout", default=str(DEFAULT_STOP_TIMEOUT),
                  help=f"seconds to wait for a broker to exit after SIGTERM before killing it "
                       f"(default {DEFAULT_STOP_TIMEOUT:g})")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "mqdesk(topics=[], groups=[], config={}, acl_user=None, sync_flush=False): how the mqdesk_broker "
        "fixture starts its broker (mqdesk_broker_module reads the module's or class's marker): topics "
        "'NAME[:QUEUES[:TYPE]]', groups 'NAME[:orderly]', broker.conf settings, an ACL super user "
        "(username, password), flushDiskType=SYNC_FLUSH")


def _binary(config: pytest.Config) -> str:
    option = config.getoption("mqdesk_broker")
    if option:
        return find_broker_binary(option, option_source="--mqdesk-broker")
    ini = config.getini("mqdesk_broker")
    if ini:
        path = Path(ini).expanduser()
        if "/" in ini and not path.is_absolute() and config.inipath is not None:
            path = config.inipath.parent / path
        return find_broker_binary(str(path) if "/" in ini else ini,
                                  option_source=f"the ini value mqdesk_broker ({config.inipath})")
    return find_broker_binary()


def _seconds(config: pytest.Config, name: str) -> float:
    value = config.getini(name)
    try:
        return float(value)
    except ValueError:
        raise pytest.UsageError(f"ini value {name} = {value!r}: expected a number of seconds") from None


@pytest.fixture(scope="session")
def mqdesk_broker_binary(pytestconfig: pytest.Config) -> str:
    """The mqdesk-broker executable the fixtures run. Fails the tests that need a broker, saying
    what to install, when none is found."""
    try:
        return _binary(pytestconfig)
    except BrokerNotFoundError as e:
        message = str(e)
    pytest.fail(message, pytrace=False)


def marker_options(node: Any) -> Dict[str, Any]:
    """start_broker keywords from the ``mqdesk`` markers on node and its parents: per keyword, the
    closest marker wins (function over class over module)."""
    options: Dict[str, Any] = {}
    for mark in node.iter_markers("mqdesk"):
        if mark.args:
            raise pytest.UsageError(f"{node.nodeid}: @pytest.mark.mqdesk takes keywords only "
                                    f"({', '.join(MARKER_KEYWORDS)}), got positional {mark.args!r}")
        unknown = sorted(set(mark.kwargs) - set(MARKER_KEYWORDS))
        if unknown:
            raise pytest.UsageError(f"{node.nodeid}: @pytest.mark.mqdesk does not know {', '.join(unknown)} "
                                    f"(it takes {', '.join(MARKER_KEYWORDS)})")
        for key, value in mark.kwargs.items():
            options.setdefault(key, value)
    return options


def _start(config: pytest.Config, tmp_path_factory: pytest.TempPathFactory, binary: str, name: str,
           options: Dict[str, Any]) -> MQDeskBroker:
    directory = tmp_path_factory.mktemp(name)
    try:
        return start_broker(directory, binary=binary, ready_timeout=_seconds(config, "mqdesk_ready_timeout"),
                            **options)
    except MQDeskError as e:
        message = str(e)
    pytest.fail(message, pytrace=False)


def _stop(config: pytest.Config, broker: MQDeskBroker) -> None:
    try:
        broker.stop(_seconds(config, "mqdesk_stop_timeout"))
        return
    except BrokerStopError as e:
        message = f"mqdesk-broker did not stop cleanly at teardown: {e}"
    pytest.fail(message, pytrace=False)


@pytest.fixture
def mqdesk_broker(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """A broker of this test alone, started as its ``@pytest.mark.mqdesk(...)`` says."""
    options = marker_options(request.node)
    broker = _start(request.config, tmp_path_factory, request.getfixturevalue("mqdesk_broker_binary"), "mqdesk",
                    options)
    yield broker
    _stop(request.config, broker)


@pytest.fixture(scope="module")
def mqdesk_broker_module(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """One broker shared by the tests of a module, started as the module's ``pytestmark`` (a
    ``mqdesk`` marker) says; stopped after the module's last test."""
    options = marker_options(request.node)
    broker = _start(request.config, tmp_path_factory, request.getfixturevalue("mqdesk_broker_binary"),
                    "mqdesk-module", options)
    yield broker
    _stop(request.config, broker)


@pytest.fixture(scope="session")
def mqdesk_session_options() -> Dict[str, Any]:
    """start_broker keywords for mqdesk_broker_session (topics, groups, config, acl_user,
    sync_flush). Override this fixture in conftest.py to configure the session's broker."""
    return {}


@pytest.fixture(scope="session")
def mqdesk_broker_session(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
                          mqdesk_broker_binary: str, mqdesk_session_options: Dict[str, Any]):
    """One broker for the whole test run (per xdist worker), configured by mqdesk_session_options."""
    unknown = sorted(set(mqdesk_session_options) - set(MARKER_KEYWORDS))
    if unknown:
        raise pytest.UsageError(f"mqdesk_session_options: unknown keys {', '.join(unknown)} "
                                f"(it takes {', '.join(MARKER_KEYWORDS)})")
    broker = _start(request.config, tmp_path_factory, mqdesk_broker_binary, "mqdesk-session",
                    dict(mqdesk_session_options))
    yield broker
    _stop(request.config, broker)


class BrokerFactory:
    """Starts brokers for one test: ``factory(topics=..., groups=..., config=..., acl_user=...,
    sync_flush=...)``; all are stopped (cleanly, or the test errors) at its end."""

    def __init__(self, config: pytest.Config, tmp_path_factory: pytest.TempPathFactory, binary: str):
        self._config = config
        self._tmp_path_factory = tmp_path_factory
        self._binary = binary
        self.brokers: List[MQDeskBroker] = []

    def __call__(self, **options: Any) -> MQDeskBroker:
        unknown = sorted(set(options) - set(MARKER_KEYWORDS))
        if unknown:
            raise TypeError(f"mqdesk_broker_factory() got unknown keywords {', '.join(unknown)}")
        broker = _start(self._config, self._tmp_path_factory, self._binary, "mqdesk-factory", options)
        self.brokers.append(broker)
        return broker

    def _stop_all(self) -> None:
        failures = []
        for broker in self.brokers:
            try:
                broker.stop(_seconds(self._config, "mqdesk_stop_timeout"))
            except BrokerStopError as e:
                failures.append(str(e))
        if failures:
            pytest.fail("mqdesk-broker did not stop cleanly at teardown:\n" + "\n\n".join(failures), pytrace=False)


@pytest.fixture
def mqdesk_broker_factory(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
                          mqdesk_broker_binary: str):
    """A function that starts brokers for this test (same keywords as the mqdesk marker)."""
    factory = BrokerFactory(request.config, tmp_path_factory, mqdesk_broker_binary)
    yield factory
    factory._stop_all()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """A failed test that used a broker fixture gets the broker's last stderr lines in its report."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    brokers: List[MQDeskBroker] = []
    for value in getattr(item, "funcargs", {}).values():
        if isinstance(value, MQDeskBroker):
            brokers.append(value)
        elif isinstance(value, BrokerFactory):
            brokers.extend(value.brokers)
    for broker in brokers:
        tail = broker.stderr_tail(30)
        if tail:
            report.sections.append((f"mqdesk-broker stderr ({broker.directory})", tail))
