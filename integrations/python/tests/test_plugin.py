"""The plugin itself, run by pytester on small test files: the marker reaches the right fixture,
each scope shares its broker as pytest users expect, teardown reports an unclean stop as an error
and a failed test shows the broker's stderr."""

import pytest


@pytest.fixture
def run(pytester):
    def run(*args):
        return pytester.runpytest("-p", "no:cacheprovider", *args)
    return run


def test_scopes_and_markers(pytester, run):
    pytester.makeconftest("""
        import pytest

        @pytest.fixture(scope="session")
        def mqdesk_session_options():
            return {"topics": ["session-topic:3"]}

        def topics(broker):
            import json
            with open(broker.store_dir / "config" / "topics.json") as f:
                return json.load(f)["topicConfigTable"]
    """)
    pytester.makepyfile(test_a="""
        import pytest
        from conftest import topics

        pytestmark = pytest.mark.mqdesk(topics=["module-topic:2"], config={"autoCreateTopicEnable": False})
        seen = {}

        def test_module_one(mqdesk_broker_module):
            seen["module"] = mqdesk_broker_module.namesrv_addr
            assert topics(mqdesk_broker_module)["module-topic"]["writeQueueNums"] == 2
            assert "autoCreateTopicEnable=false" in mqdesk_broker_module.config_path.read_text()

        def test_module_two(mqdesk_broker_module):
            assert mqdesk_broker_module.namesrv_addr == seen["module"]

        @pytest.mark.mqdesk(topics=["function-topic:5:DELAY"], groups=["g:orderly"])
        def test_function_marker_wins_per_keyword(mqdesk_broker, mqdesk_broker_module):
            assert mqdesk_broker.namesrv_addr != mqdesk_broker_module.namesrv_addr
            table = topics(mqdesk_broker)
            assert "module-topic" not in table
            assert table["function-topic"]["attributes"]["message.type"] == "DELAY"
            # config comes from the module's marker: the closest marker wins per keyword
            assert "autoCreateTopicEnable=false" in mqdesk_broker.config_path.read_text()
            seen["function"] = mqdesk_broker

        def test_function_broker_was_stopped(mqdesk_broker_session):
            assert not seen["function"].running
            seen["session"] = mqdesk_broker_session.namesrv_addr
            assert topics(mqdesk_broker_session)["session-topic"]["writeQueueNums"] == 3
    """)
    pytester.makepyfile(test_b="""
        import test_a

        def test_session_is_shared(mqdesk_broker_session):
            assert mqdesk_broker_session.namesrv_addr == test_a.seen["session"]

        def test_factory(mqdesk_broker_factory):
            first = mqdesk_broker_factory(topics=["x"])
            second = mqdesk_broker_factory(acl_user=("admin", "secret12"))
            assert first.grpc_endpoint != second.grpc_endpoint
            assert second.acl_user == ("admin", "secret12")
            assert 'initAuthenticationUser={"username":"admin","password":"secret12"}' in \\
                second.config_path.read_text()
    """)
    result = run("-v")
    result.assert_outcomes(passed=6)


def test_an_unclean_stop_is_a_test_error(pytester, run):
    pytester.makepyfile("""
        import os, signal

        def test_broker_dies_under_the_test(mqdesk_broker):
            os.kill(mqdesk_broker.pid, signal.SIGKILL)
            mqdesk_broker._process.wait()
    """)
    result = run()
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*ERROR at teardown of test_broker_dies_under_the_test*",
                                 "*did not stop cleanly*had already exited with code -9*"])


def test_kill_is_deliberate_and_restart_recovers(pytester, run):
    pytester.makepyfile("""
        def test_crash_and_recover(mqdesk_broker):
            mqdesk_broker.kill()
            assert (mqdesk_broker.store_dir / "abort").exists()
            mqdesk_broker.restart()
            assert mqdesk_broker.running
    """)
    run().assert_outcomes(passed=1)


def test_a_failed_test_shows_the_broker_log(pytester, run):
    pytester.makepyfile("""
        def test_fails(mqdesk_broker):
            assert False, "the application misbehaved"
    """)
    result = run()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*mqdesk-broker stderr*", "*grpc: MessagingService on 127.0.0.1:*"])


def test_a_wrong_marker_is_reported(pytester, run):
    pytester.makepyfile("""
        import pytest

        @pytest.mark.mqdesk(topic=["singular"])
        def test_typo(mqdesk_broker):
            pass
    """)
    result = run()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*mqdesk does not know topic (it takes topics, groups*"])


def test_the_marker_is_registered(pytester, run):
    pytester.makepyfile("def test_nothing(): pass")
    result = run("--strict-markers", "--markers")
    result.stdout.fnmatch_lines(["@pytest.mark.mqdesk(topics=*"])
