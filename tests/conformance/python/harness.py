"""Conformance harness for the RocketMQ 5 Python SDK (rocketmq-python-client, from PyPI; gRPC to
the broker's 5.x endpoint): runs one scenario against a freshly started mqdesk-broker.

    python3 <scenario>_test.py <path/to/mqdesk-broker> <path/to/mqdesk-admin>

Run with any python3: the harness re-executes itself in ./.venv, where scripts/test.sh installs the
SDK pinned by requirements.txt. Each scenario gets its own temp dir (also the SDK's HOME, so its
~/logs/rocketmq_python lands there) and broker (ports picked by the broker, read from its ready
line), unique topic and group names, and clients made through the harness so that all are shut
down at the end. Topics of a 5.x type (FIFO, DELAY, TRANSACTION) and FIFO groups are made with
mqdesk-admin, as a user would with mqadmin. On success the clients are shut down, the broker is
stopped with SIGTERM (exit 0, no `abort` file) and the temp dir is removed; on failure it prints
what differed, the SDK's log lines and the broker's stderr, keeps the temp dir and exits 1.

Environment: MQDESK_CONFORMANCE_VERBOSE=1 prints the SDK's log lines live;
MQDESK_CONFORMANCE_KEEP=1 keeps the temp dir on success.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VENV = os.path.join(HERE, '.venv')


def _run_inside_venv():
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        return
    python = os.path.join(VENV, 'bin', 'python')
    if not os.path.exists(python):
        sys.stderr.write(f'conformance: no Python venv at {VENV}.\nscripts/test.sh makes it; by hand: '
                         f'python3 -m venv {VENV} && {python} -m pip install -r {HERE}/requirements.txt\n')
        sys.exit(2)
    os.execv(python, [python] + sys.argv)


_run_inside_venv()

import logging  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402

T0 = time.monotonic()
VERBOSE = os.environ.get('MQDESK_CONFORMANCE_VERBOSE') == '1'
KEEP = os.environ.get('MQDESK_CONFORMANCE_KEEP') == '1'
READY_TIMEOUT_S = 20
STOP_TIMEOUT_S = 15
READY_RE = re.compile(r'^mqdesk-broker ready: namesrv=(\S+):(\d+) broker=(\S+):(\d+) store=(.+?) grpc=(\S+):(\d+)$')


def note(text):
    print(f'+{time.monotonic() - T0:7.3f}s {text}', flush=True)


class Broker:
    """One mqdesk-broker process on the scenario's own store and broker.conf. start() may be
    called again after stop() or kill(); the ports may then change (clients must be re-made)."""

    def __init__(self, binary, root, extra_conf):
        self.binary = binary
        self.root = root
        self.store_dir = os.path.join(root, 'store')
        self.conf_path = os.path.join(root, 'broker.conf')
        self.process = None
        self.starts = 0
        self.namesrv = self.addr = self.grpc = None
        os.makedirs(self.store_dir)
        with open(self.conf_path, 'w') as conf:
            conf.write('\n'.join(['# Written by tests/conformance/python/harness.py',
                                  'autoCreateTopicEnable=true', 'defaultTopicQueueNums=4', *extra_conf, '']))

    @property
    def running(self):
        return self.process is not None and self.process.poll() is None

    def stderr_lines(self, n=40):
        if not self.starts:
            return ''
        with open(os.path.join(self.root, f'broker-{self.starts}.stderr.log'), errors='replace') as f:
            return ''.join(f.readlines()[-n:])

    def start(self):
        self.starts += 1
        args = [self.binary, '--store', self.store_dir, '--namesrv-port', '0', '--broker-port', '0',
                '--grpc-port', '0', '-c', self.conf_path]
        note(f'starting broker (#{self.starts}): {" ".join(args)}')
        stderr = open(os.path.join(self.root, f'broker-{self.starts}.stderr.log'), 'wb')
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=stderr, text=True)
        stderr.close()
        ready = []
        reader = threading.Thread(target=self._read_stdout, args=(self.process, ready), daemon=True)
        reader.start()
        reader.join(READY_TIMEOUT_S)
        if not ready:
            self.kill()
            raise AssertionError(f'broker printed no ready line within {READY_TIMEOUT_S} s (exit {self.process.poll()})'
                                 f'\ncommand: {" ".join(args)}\nstderr (last lines):\n{self.stderr_lines()}')
        m = READY_RE.match(ready[0])
        if not m:
            raise AssertionError(f'malformed ready line: {ready[0]!r}')
        ns_host, ns_port, br_host, br_port, store, grpc_host, grpc_port = m.groups()
        if 0 in (int(ns_port), int(br_port), int(grpc_port)):
            raise AssertionError(f'ready line reports port 0: {ready[0]}')
        if os.path.realpath(store) != os.path.realpath(self.store_dir):
            raise AssertionError(f'ready line names store {store}, the broker was started with {self.store_dir}')
        self.namesrv, self.addr, self.grpc = f'{ns_host}:{ns_port}', f'{br_host}:{br_port}', f'{grpc_host}:{grpc_port}'
        note(f'broker #{self.starts} ready: namesrv={self.namesrv} broker={self.addr} grpc={self.grpc} '
             f'(pid {self.process.pid})')

    def _read_stdout(self, process, ready):
        with open(os.path.join(self.root, f'broker-{self.starts}.stdout.log'), 'w') as log:
            for line in process.stdout:
                log.write(line)
                log.flush()
                if not ready and line.startswith('mqdesk-broker ready:'):
                    ready.append(line.rstrip('\r\n'))
                    threading.Thread(target=self._drain, args=(process, log), daemon=True).start()
                    return

    @staticmethod
    def _drain(process, log):
        for line in process.stdout:
            log.write(line)

    def stop(self):
        """SIGTERM, then require exit code 0 and no `abort` file (the mark of an unclean shutdown)."""
        if not self.running:
            raise AssertionError(f'stop(): the broker is not running (exit {self.process and self.process.poll()})'
                                 f'\nstderr (last lines):\n{self.stderr_lines()}')
        t = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f'broker did not exit within {STOP_TIMEOUT_S} s of SIGTERM\n{self.stderr_lines()}')
        if code != 0:
            raise AssertionError(f'broker exited with {code} after SIGTERM (expected a clean 0)\n{self.stderr_lines()}')
        abort = os.path.join(self.store_dir, 'abort')
        if os.path.exists(abort):
            raise AssertionError(f'after a clean SIGTERM shutdown the store still holds {abort}')
        note(f'broker #{self.starts} stopped cleanly in {(time.monotonic() - t) * 1000:.0f} ms')

    def kill(self):
        if self.running:
            self.process.kill()
            self.process.wait()


class _LogRecorder(logging.Handler):
    def __init__(self):
        super().__init__(logging.INFO)
        self.lines = []

    def emit(self, record):
        line = f'+{time.monotonic() - T0:7.3f}s {record.levelname}: {record.getMessage()}'
        if len(self.lines) < 4000:
            self.lines.append(line)
        if VERBOSE:
            print(line, flush=True)


class Harness:
    def __init__(self, scenario, broker_path, admin_path, broker_conf):
        self.scenario = scenario
        self.admin_path = admin_path
        self.root = tempfile.mkdtemp(prefix=f'mqdesk-conformance-python-{scenario}-')
        os.environ['HOME'] = self.root  # the SDK logs to ~/logs/rocketmq_python, made at import
        self.broker = Broker(broker_path, self.root, broker_conf)
        self.clients = []
        self._names = 0
        self.log = _LogRecorder()
        import rocketmq
        self.sdk = rocketmq
        logging.getLogger('rocketmq-python-client').addHandler(self.log)

    def name(self, kind):
        self._names += 1
        return f'{kind}_{re.sub("[^A-Za-z0-9]", "", self.scenario)[:24]}_{os.getpid()}_{self._names}'

    def admin(self, *args):
        r = subprocess.run([self.admin_path, '-n', self.broker.namesrv, *args], capture_output=True, text=True,
                           timeout=20)
        if r.returncode != 0:
            raise AssertionError(f'mqdesk-admin {" ".join(args)} failed: {r.stderr or r.stdout}')
        return r.stdout

    def create_topic(self, message_type='NORMAL', queues=4):
        """A topic of a 5.x message type (NORMAL, FIFO, DELAY, TRANSACTION), as mqadmin updateTopic -a makes it."""
        topic = self.name(f'T{message_type}')
        self.admin('updateTopic', '-t', topic, '-b', self.broker.addr, '-r', str(queues), '-w', str(queues),
                   '-a', f'+message.type={message_type}')
        note(f'topic {topic} ({message_type}, {queues} queues)')
        return topic

    def create_group(self, orderly=False, retry_max_times=16):
        group = self.name('GFIFO' if orderly else 'G')
        self.admin('updateSubGroup', '-g', group, '-b', self.broker.addr, '-o', str(orderly).lower(),
                   '-r', str(retry_max_times))
        return group

    def configuration(self):
        return self.sdk.ClientConfiguration(self.broker.grpc, self.sdk.Credentials(), request_timeout=5)

    def _track(self, label, client):
        client.startup()
        self.clients.append((label, client))
        note(f'{label} started')
        return client

    def producer(self, topics, checker=None):
        return self._track('producer', self.sdk.Producer(self.configuration(), tuple(topics), checker))

    def simple_consumer(self, group, subscription, await_duration=5):
        return self._track(f'simple({group})', self.sdk.SimpleConsumer(
            self.configuration(), group, subscription, await_duration=await_duration))

    def push_consumer(self, group, subscription, consume):
        sdk = self.sdk

        class Listener(sdk.MessageListener):
            def consume(self, message):
                return consume(message)

        return self._track(f'push({group})', sdk.PushConsumer(self.configuration(), group, Listener(), subscription))

    def message(self, topic, body, tag=None, keys=(), properties=None, message_group=None, delivery_seconds=None):
        m = self.sdk.Message()
        m.topic = topic
        m.body = body if isinstance(body, bytes) else body.encode()
        if tag:
            m.tag = tag
        for key in keys:
            m.keys = key  # the SDK's setter adds one key per assignment
        for key, value in (properties or {}).items():
            m.add_property(key, value)
        if message_group:
            m.message_group = message_group
        if delivery_seconds is not None:
            # rocketmq-python-client 5.1.2 copies delivery_timestamp into the protobuf Timestamp's
            # seconds field although its docstring says milliseconds: it must be given in seconds.
            m.delivery_timestamp = int(delivery_seconds)
        return m

    def receive_all(self, consumer, want, seconds=30, invisible=15, ack=True, batch=16):
        """Receives until `want` messages arrived or `seconds` passed; acks each unless ack=False."""
        got = []
        until = time.monotonic() + seconds
        while len(got) < want and time.monotonic() < until:
            for message in consumer.receive(batch, invisible):
                got.append(message)
                if ack:
                    consumer.ack(message)
        return got

    def shutdown(self, client):
        for i, (label, c) in enumerate(self.clients):
            if c is client:
                del self.clients[i]
                client.shutdown()
                note(f'{label} shut down')
                return

    def shutdown_all(self):
        while self.clients:
            self.shutdown(self.clients[-1][1])


def wait_until(predicate, seconds, step=0.2):
    until = time.monotonic() + seconds
    while not predicate() and time.monotonic() < until:
        time.sleep(step)
    return predicate()


def check(condition, message, *args):
    if not condition:
        raise AssertionError(message % args if args else message)


def run(scenario, body, broker_conf=()):
    """run(name, lambda h: ...[, broker_conf=[...]]): the whole life of one scenario."""
    if len(sys.argv) < 3:
        sys.stderr.write(f'usage: {os.path.basename(sys.argv[0])} <path/to/mqdesk-broker> <path/to/mqdesk-admin>\n')
        sys.exit(2)
    h = Harness(scenario, sys.argv[1], sys.argv[2], list(broker_conf))
    try:
        h.broker.start()
        body(h)
        h.shutdown_all()
        h.broker.stop()
    except BaseException as e:  # noqa: B902 - a scenario's failure of any kind is reported the same way
        out = [f'\nFAIL conformance_python_{scenario}: {e}', ''.join(traceback.format_tb(e.__traceback__)[-4:]),
               f'-- the SDK\'s log (last 40 of {len(h.log.lines)}):', '\n'.join(h.log.lines[-40:]) or '(empty)',
               f'-- broker stderr (last 40 lines of broker #{h.broker.starts}):', h.broker.stderr_lines(40) or '(empty)',
               f'-- kept for inspection: {h.root}']
        sys.stderr.write('\n'.join(out) + '\n')
        h.broker.kill()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(1)  # the SDK's non-daemon threads would keep a failed scenario alive
    note(f'PASS conformance_python_{scenario}')
    if not KEEP:
        shutil.rmtree(h.root, ignore_errors=True)
    sys.stdout.flush()
    os._exit(0)
