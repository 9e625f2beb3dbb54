"""The plugin under test (pytest_mqdesk) is not loaded here: it is installed in the venv
(pip install -e integrations/python) and pytest loads it through its pytest11 entry point, as it
would for any user. pytester runs pytest inside the tests that check the plugin itself."""

import os
import shutil
import tempfile

pytest_plugins = ["pytester"]

_sdk_home = None


def pytest_configure(config):
    # pytester runs pytest in other folders: a relative MQDESK_BROKER would not be found from there.
    if os.environ.get("MQDESK_BROKER") and os.sep in os.environ["MQDESK_BROKER"]:
        os.environ["MQDESK_BROKER"] = os.path.abspath(os.environ["MQDESK_BROKER"])
    # rocketmq-python-client writes its log to ~/logs/rocketmq_python, made when it is first
    # imported: point HOME at a temporary folder so that running these tests leaves nothing there.
    global _sdk_home
    if _sdk_home is None:
        _sdk_home = tempfile.mkdtemp(prefix="pytest-mqdesk-sdk-home-")
        os.environ["HOME"] = _sdk_home


def pytest_unconfigure(config):
    global _sdk_home
    if _sdk_home is not None:
        shutil.rmtree(_sdk_home, ignore_errors=True)
        _sdk_home = None
