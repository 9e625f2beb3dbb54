"""Without a broker binary, the error says what to install; a path given explicitly is never
silently swapped for another broker."""

import stat

import pytest

import pytest_mqdesk.broker as broker_module
from pytest_mqdesk import BrokerNotFoundError, find_broker_binary, start_broker


@pytest.fixture
def nowhere(monkeypatch, tmp_path):
    """No MQDESK_BROKER, an empty PATH and no Debian package."""
    monkeypatch.delenv("MQDESK_BROKER", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    monkeypatch.setattr(broker_module, "DEB_BINARY", str(tmp_path / "usr-bin" / "mqdesk-broker"))


def _fake_broker(directory):
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "mqdesk-broker"
    path.write_text("#!/bin/sh\nexit 3\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_nothing_found_says_what_to_install(nowhere):
    with pytest.raises(BrokerNotFoundError) as error:
        find_broker_binary()
    message = str(error.value)
    assert "mqdesk-broker not found" in message
    assert ".deb" in message and "/usr/bin/mqdesk-broker" in message
    assert "MQDESK_BROKER=/path/to/" in message and "--mqdesk-broker" in message


def test_start_broker_raises_the_same(nowhere, tmp_path):
    with pytest.raises(BrokerNotFoundError, match="MQDESK_BROKER"):
        start_broker(tmp_path / "b")


def test_a_wrong_environment_path_is_named(nowhere, monkeypatch, tmp_path):
    _fake_broker(tmp_path / "empty-bin")  # on PATH, yet MQDESK_BROKER wins and is wrong
    monkeypatch.setenv("MQDESK_BROKER", str(tmp_path / "no" / "such" / "mqdesk-broker"))
    with pytest.raises(BrokerNotFoundError, match=r"MQDESK_BROKER=.*/no/such/mqdesk-broker is not an executable"):
        find_broker_binary()


def test_lookup_order(nowhere, monkeypatch, tmp_path):
    on_path = _fake_broker(tmp_path / "empty-bin")
    deb = _fake_broker(tmp_path / "usr-bin")
    from_env = _fake_broker(tmp_path / "env")
    option = _fake_broker(tmp_path / "option")
    assert find_broker_binary() == str(on_path)
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    assert find_broker_binary() == str(deb)
    monkeypatch.setenv("MQDESK_BROKER", str(from_env))
    assert find_broker_binary() == str(from_env)
    assert find_broker_binary(str(option)) == str(option)


def test_a_broker_that_exits_at_once_is_reported_with_its_stderr(tmp_path):
    fake = tmp_path / "bin" / "mqdesk-broker"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\necho 'mqdesk-broker: cannot open the store (a fake failure)' >&2\nexit 1\n")
    fake.chmod(0o755)
    with pytest.raises(broker_module.BrokerStartError) as error:
        start_broker(tmp_path / "b", binary=str(fake))
    assert "exited before it was ready (exit code 1)" in str(error.value)
    assert "a fake failure" in str(error.value)


def test_a_broker_that_never_gets_ready_times_out(tmp_path):
    fake = tmp_path / "bin" / "mqdesk-broker"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\necho 'still recovering the store' >&2\nexec sleep 60\n")
    fake.chmod(0o755)
    with pytest.raises(broker_module.BrokerStartError) as error:
        start_broker(tmp_path / "b", binary=str(fake), ready_timeout=0.5)
    assert "no ready line within 0.5 s" in str(error.value)
    assert "still recovering the store" in str(error.value)


def test_the_fixture_fails_with_the_message(pytester, nowhere):
    pytester.makepyfile("""
        def test_needs_a_broker(mqdesk_broker):
            pass
    """)
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*mqdesk-broker not found*MQDESK_BROKER*"])


def test_the_option_names_the_wrong_path(pytester, tmp_path):
    pytester.makepyfile("""
        def test_needs_a_broker(mqdesk_broker):
            pass
    """)
    result = pytester.runpytest("-p", "no:cacheprovider", "--mqdesk-broker", str(tmp_path / "missing"))
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*--mqdesk-broker */missing is not an executable file*"])
