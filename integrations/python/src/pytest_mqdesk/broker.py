"""Starting and stopping one mqdesk-broker process, without pytest.

``start_broker(directory, ...)`` runs ``mqdesk-broker`` (NameServer + broker + RocketMQ 5 gRPC
endpoint in one process) on ports it picks itself (``--*-port 0``, so brokers started side by side
never race for a port), waits for its ready line and returns an :class:`MQDeskBroker`. The directory
holds everything of that broker: ``broker.conf``, ``store/`` and the ``broker*.stderr.log`` /
``broker*.stdout.log`` files. ``stop()`` sends SIGTERM and insists on a clean shutdown (exit code 0
and no ``abort`` file left in the store), killing the process after a timeout.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import signal
import subprocess
import threading
from pathlib import Path
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

__all__ = [
    "DEB_BINARY",
    "ENV_VAR",
    "BrokerNotFoundError",
    "BrokerStartError",
    "BrokerStopError",
    "MQDeskBroker",
    "MQDeskError",
    "find_broker_binary",
    "start_broker",
]

ENV_VAR = "MQDESK_BROKER"
DEB_BINARY = "/usr/bin/mqdesk-broker"
DEFAULT_READY_TIMEOUT = 30.0
DEFAULT_STOP_TIMEOUT = 30.0
READY_RE = re.compile(r"^mqdesk-broker ready: namesrv=(\S+) broker=(\S+) store=(.+?)(?: grpc=(\S+))?$")
STDERR_TAIL_LINES = 40

TopicSpec = Union[str, Sequence[object]]
GroupSpec = Union[str, Sequence[object]]


class MQDeskError(Exception):
    """Base class of the errors raised here."""


class BrokerNotFoundError(MQDeskError):
    """No mqdesk-broker executable was found (or the one named does not exist)."""


class BrokerStartError(MQDeskError):
    """The broker exited or printed no ready line in time."""


class BrokerStopError(MQDeskError):
    """The broker did not stop cleanly: it had already exited, did not exit within the timeout of
    SIGTERM (it was then killed), exited with a non-zero code, or left an ``abort`` file."""


_INSTALL_HINT = (
    "Install MQDesk's Debian package (sudo apt-get install ./mqdesk_<version>_<arch>.deb puts it at "
    f"{DEB_BINARY}), or build MQDesk (cmake --preset release && cmake --build --preset release) and set "
    f"{ENV_VAR}=/path/to/build/release/app/mqdesk-broker/mqdesk-broker "
    "(or pass --mqdesk-broker PATH to pytest, or set mqdesk_broker in the pytest ini file)."
)


def _executable(candidate: str) -> Optional[str]:
    """The absolute path of candidate (a path, or a bare name looked up on PATH) if it is an
    executable file, else None."""
    if os.sep not in candidate:
        found = shutil.which(candidate)
        return os.path.abspath(found) if found else None
    path = os.path.abspath(os.path.expanduser(candidate))
    return path if os.path.isfile(path) and os.access(path, os.X_OK) else None


def find_broker_binary(option: Optional[str] = None, *, option_source: str = "--mqdesk-broker",
                       environ: Optional[Mapping[str, str]] = None) -> str:
    """The mqdesk-broker to run: ``option`` (the pytest option or ini value) if given, else
    ``$MQDESK_BROKER``, else ``mqdesk-broker`` on PATH, else ``/usr/bin/mqdesk-broker`` (where the
    Debian package installs it). A path given explicitly (option or environment) must exist: it is
    never silently replaced by another broker. Raises BrokerNotFoundError saying what to install."""
    environ = os.environ if environ is None else environ
    if option:
        found = _executable(option)
        if not found:
            raise BrokerNotFoundError(f"mqdesk-broker not found: {option_source} {option} is not an executable "
                                      f"file. Fix or drop it. {_INSTALL_HINT}")
        return found
    from_env = environ.get(ENV_VAR)
    if from_env:
        found = _executable(from_env)
        if not found:
            raise BrokerNotFoundError(f"mqdesk-broker not found: {ENV_VAR}={from_env} is not an executable file. "
                                      f"Fix or unset it. {_INSTALL_HINT}")
        return found
    found = shutil.which("mqdesk-broker", path=environ.get("PATH", os.defpath))
    if found:
        return os.path.abspath(found)
    if os.path.isfile(DEB_BINARY) and os.access(DEB_BINARY, os.X_OK):
        return DEB_BINARY
    raise BrokerNotFoundError(
        f"mqdesk-broker not found: no --mqdesk-broker option or mqdesk_broker ini value, {ENV_VAR} is not set, "
        f"there is no mqdesk-broker on PATH and no {DEB_BINARY}. {_INSTALL_HINT}")


def _topic_arg(spec: TopicSpec) -> str:
    """'orders', 'orders:4', 'orders:4:FIFO', ('orders', 4), ('orders', 4, 'FIFO') or
    ('orders', None, 'FIFO') (the broker's default of 8 queues) -> the --topic value."""
    if isinstance(spec, str):
        return spec
    parts = list(spec)
    if not 1 <= len(parts) <= 3 or not isinstance(parts[0], str):
        raise ValueError(f"topic {spec!r}: expected 'NAME[:QUEUES[:TYPE]]' or (name[, queues[, type]])")
    name = parts[0]
    queues = parts[1] if len(parts) > 1 else None
    message_type = parts[2] if len(parts) > 2 else None
    if message_type is not None:
        return f"{name}:{8 if queues is None else int(queues)}:{message_type}"
    return name if queues is None else f"{name}:{int(queues)}"


def _group_arg(spec: GroupSpec) -> str:
    """'g', 'g:orderly', ('g',) or ('g', True) (orderly: a FIFO group) -> the --group value."""
    if isinstance(spec, str):
        return spec
    parts = list(spec)
    if not 1 <= len(parts) <= 2 or not isinstance(parts[0], str):
        raise ValueError(f"group {spec!r}: expected 'NAME[:orderly]' or (name, orderly)")
    return f"{parts[0]}:orderly" if len(parts) == 2 and parts[1] else parts[0]


def _property_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def broker_conf_text(config: Mapping[str, object]) -> str:
    """broker.conf as mqdesk-broker reads it: one key=value a line, taken literally (no escapes,
    no line continuations; blanks around key and value are dropped). Booleans become true/false,
    dicts and lists JSON."""
    lines = ["# Written by pytest-mqdesk"]
    for key, value in config.items():
        text = _property_value(value)
        if not key or any(c in key for c in "=: \t\r\n#!"):
            raise ValueError(f"broker.conf key {key!r}: must be a plain RocketMQ setting name")
        if "\n" in text or "\r" in text or text.endswith("\\"):
            raise ValueError(f"broker.conf value of {key}: {text!r} cannot be written on one line")
        lines.append(f"{key}={text}")
    return "\n".join(lines) + "\n"


def _tail(path: Path, lines: int) -> str:
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - 64 * 1024))
            data = f.read()
    except OSError:
        return ""
    return "\n".join(data.decode("utf-8", "replace").splitlines()[-lines:])


_live_lock = threading.Lock()
_live: "set[MQDeskBroker]" = set()


@atexit.register
def _stop_leftovers() -> None:
    """A broker still running when the interpreter exits (a test runner interrupted, a broker not
    stopped by its owner) gets SIGTERM, then SIGKILL: none outlives the tests that started it."""
    with _live_lock:
        leftovers = list(_live)
    for broker in leftovers:
        broker._terminate_quietly()


class MQDeskBroker:
    """One running mqdesk-broker. Addresses are 'host:port' strings:

    - ``namesrv_addr``: the NameServer (remoting clients' namesrvAddr);
    - ``broker_addr``: the broker's remoting address;
    - ``grpc_endpoint``: the RocketMQ 5 gRPC endpoint (the 5.x SDKs' endpoints), plaintext and TLS;
    - ``store_dir``: the store root (a Path); ``directory`` holds it with broker.conf and the logs.

    Use it as a context manager, or call ``stop()``. Made by :func:`start_broker`.
    """

    def __init__(self, binary: str, directory: Path, args: List[str], env: Optional[Mapping[str, str]],
                 ready_timeout: float, acl_user: Optional[Tuple[str, str]]):
        self.binary = binary
        self.directory = directory
        self.config_path = directory / "broker.conf"
        self.acl_user = acl_user
        self._args = args
        self._env = dict(env) if env is not None else None
        self._ready_timeout = ready_timeout
        self._starts = 0
        self._process: Optional[subprocess.Popen] = None
        self._pump: Optional[threading.Thread] = None
        self._stopped = True
        self.namesrv_addr = self.broker_addr = ""
        self.grpc_endpoint: Optional[str] = None
        self.store_dir = directory / "store"

    # -- life cycle ------------------------------------------------------------------------------

    def _launch(self) -> None:
        self._starts += 1
        suffix = "" if self._starts == 1 else f"-{self._starts}"
        self.stderr_path = self.directory / f"broker{suffix}.stderr.log"
        self.stdout_path = self.directory / f"broker{suffix}.stdout.log"
        command = [self.binary, *self._args]
        with open(self.stderr_path, "wb") as stderr:
            try:
                process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr,
                                           cwd=str(self.directory), env=self._env, start_new_session=True)
            except OSError as e:
                raise BrokerStartError(f"cannot run {self.binary}: {e}") from e
        self._process = process
        self._stopped = False
        with _live_lock:
            _live.add(self)
        ready: List[str] = []
        done = threading.Event()
        self._pump = threading.Thread(target=self._read_stdout, args=(process, self.stdout_path, ready, done),
                                      name=f"mqdesk-broker-{process.pid}-stdout", daemon=True)
        self._pump.start()
        if not done.wait(self._ready_timeout):
            self._terminate_quietly()
            raise BrokerStartError(self._describe(
                f"mqdesk-broker printed no ready line within {self._ready_timeout:g} s; it was killed", command))
        if not ready:
            try:
                code = process.wait(5)
            except subprocess.TimeoutExpired:
                code = None
            self._terminate_quietly()
            raise BrokerStartError(self._describe(
                f"mqdesk-broker exited before it was ready (exit code {code})", command))
        match = READY_RE.match(ready[0])
        if not match:
            self._terminate_quietly()
            raise BrokerStartError(self._describe(f"mqdesk-broker printed a malformed ready line: {ready[0]!r}",
                                                  command))
        self.namesrv_addr, self.broker_addr, store, self.grpc_endpoint = match.groups()
        self.store_dir = Path(store)

    @staticmethod
    def _read_stdout(process: subprocess.Popen, log_path: Path, ready: List[str], done: threading.Event) -> None:
        """Copies the broker's stdout to log_path, handing over its ready line; EOF sets done too."""
        assert process.stdout is not None
        try:
            with open(log_path, "wb") as log:
                for raw in process.stdout:
                    log.write(raw)
                    log.flush()
                    line = raw.decode("utf-8", "replace").rstrip("\r\n")
                    if not ready and line.startswith("mqdesk-broker ready:"):
                        ready.append(line)
                        done.set()
        finally:
            done.set()
            process.stdout.close()

    def _describe(self, what: str, command: Sequence[str]) -> str:
        tail = self.stderr_tail()
        return (f"{what}\ncommand: {' '.join(command)}\ndirectory: {self.directory}\n"
                f"stderr ({self.stderr_path.name}, last lines):\n{tail or '(empty)'}")

    def stderr_tail(self, lines: int = STDERR_TAIL_LINES) -> str:
        """The last lines the broker wrote to stderr (its log)."""
        return _tail(self.stderr_path, lines) if self._starts else ""

    @property
    def pid(self) -> Optional[int]:
        return self._process.pid if self._process else None

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    @property
    def tls_ca_file(self) -> Path:
        """The self-signed certificate the gRPC endpoint serves TLS with by default (made at its
        first start): trust it as a CA, e.g. GRPC_DEFAULT_SSL_ROOTS_FILE_PATH for grpcio."""
        return self.store_dir / "config" / "tls" / "mqdesk-selfsigned.pem"

    def _forget(self) -> None:
        with _live_lock:
            _live.discard(self)
        if self._pump is not None:
            self._pump.join(5)

    def stop(self, timeout: float = DEFAULT_STOP_TIMEOUT) -> None:
        """SIGTERM, then wait up to ``timeout`` seconds for exit code 0 with no ``abort`` file left in
        the store. Raises BrokerStopError otherwise (killing the process if it is still running).
        Calling it again, or after kill(), does nothing."""
        if self._stopped or self._process is None:
            return
        self._stopped = True
        process = self._process
        try:
            code = process.poll()
            if code is not None:
                raise BrokerStopError(self._stop_failure(
                    f"mqdesk-broker (pid {process.pid}) had already exited with code {code} before stop() "
                    f"(it crashed or was killed)"))
            process.send_signal(signal.SIGTERM)
            try:
                code = process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
                raise BrokerStopError(self._stop_failure(
                    f"mqdesk-broker (pid {process.pid}) did not exit within {timeout:g} s of SIGTERM; it was killed"))
            if code != 0:
                raise BrokerStopError(self._stop_failure(
                    f"mqdesk-broker (pid {process.pid}) exited with code {code} after SIGTERM (a clean stop exits 0)"))
            abort = self.store_dir / "abort"
            if abort.exists():
                raise BrokerStopError(self._stop_failure(
                    f"mqdesk-broker (pid {process.pid}) exited 0 but left {abort}: the store was not closed cleanly"))
        finally:
            self._forget()

    def _stop_failure(self, what: str) -> str:
        return f"{what}\ndirectory: {self.directory}\nstderr ({self.stderr_path.name}, last lines):\n" \
               f"{self.stderr_tail() or '(empty)'}"

    def kill(self) -> None:
        """SIGKILL, as a crash would: the store keeps its ``abort`` file. A later stop() does nothing;
        restart() recovers the store."""
        if self._process is None or self._stopped:
            return
        self._stopped = True
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()
        self._forget()

    def _terminate_quietly(self) -> None:
        process = self._process
        if process is None:
            return
        self._stopped = True
        if process.poll() is None:
            try:
                process.send_signal(signal.SIGTERM)
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        with _live_lock:
            _live.discard(self)

    def restart(self) -> None:
        """stop() (which must be clean; a no-op after kill()), then start again on the same store and
        broker.conf. The ports change: clients must be made anew from the new addresses."""
        self.stop()
        self._launch()

    def __enter__(self) -> "MQDeskBroker":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.stop()
        else:
            try:
                self.stop()
            except BrokerStopError:
                pass  # the body's own exception is the one to see

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        return (f"<MQDeskBroker pid={self.pid} {state} namesrv={self.namesrv_addr} broker={self.broker_addr} "
                f"grpc={self.grpc_endpoint} store={self.store_dir}>")


def start_broker(directory: Union[str, "os.PathLike[str]"], *, topics: Iterable[TopicSpec] = (),
                 groups: Iterable[GroupSpec] = (), config: Optional[Mapping[str, object]] = None,
                 acl_user: Optional[Tuple[str, str]] = None, sync_flush: bool = False,
                 binary: Optional[str] = None, ready_timeout: float = DEFAULT_READY_TIMEOUT,
                 extra_args: Sequence[str] = (), env: Optional[Mapping[str, str]] = None) -> MQDeskBroker:
    """Starts mqdesk-broker with its store in ``directory``/store (made if missing; an existing store
    is reused) and returns once it is ready. Works as a context manager too::

        with start_broker(tmp_path, topics=["orders:4"]) as broker:
            ...  # broker.grpc_endpoint, broker.namesrv_addr

    - ``topics``: made before the ready line, as 'NAME[:QUEUES[:TYPE]]' (TYPE: NORMAL, FIFO, DELAY,
      TRANSACTION) or a tuple (name, queues, type);
    - ``groups``: subscription groups, 'NAME' or 'NAME:orderly' (or (name, orderly));
    - ``config``: broker.conf settings (RocketMQ keys), e.g. {"autoCreateTopicEnable": False};
    - ``acl_user``: (username, password): turns on authentication and authorization with that user
      as the super user (5.x clients then need Credentials(username, password));
    - ``sync_flush``: flushDiskType=SYNC_FLUSH;
    - ``binary``: the mqdesk-broker to run (default: :func:`find_broker_binary`);
    - ``ready_timeout``: seconds to wait for the ready line (then BrokerStartError, with stderr);
    - ``extra_args``: more command-line flags; ``env``: the process environment (default: ours).
    """
    binary = binary or find_broker_binary()
    root = Path(directory).absolute()
    root.mkdir(parents=True, exist_ok=True)
    settings: Dict[str, object] = {}
    if sync_flush:
        settings["flushDiskType"] = "SYNC_FLUSH"
    if acl_user is not None:
        username, password = acl_user
        settings.update(authenticationEnabled=True, authorizationEnabled=True,
                        initAuthenticationUser={"username": username, "password": password})
    settings.update(config or {})
    (root / "broker.conf").write_text(broker_conf_text(settings))
    args = ["--store", str(root / "store"), "--namesrv-port", "0", "--broker-port", "0", "--grpc-port", "0",
            "-c", str(root / "broker.conf")]
    for topic in topics:
        args += ["--topic", _topic_arg(topic)]
    for group in groups:
        args += ["--group", _group_arg(group)]
    args += list(extra_args)
    broker = MQDeskBroker(binary, root, args, env, ready_timeout, tuple(acl_user) if acl_user else None)
    broker._launch()
    return broker
