#!/usr/bin/env python3
"""MQDesk beside the Java broker, same machine, same run (called by scripts/compare-java.sh).

For each flush mode, first the Java NameServer + broker (RocketMQ 5.5.0 from Maven Central), then
mqdesk-broker, each on a fresh store in a temporary folder, each driven by the same clients:

  * RocketMQ's own benchmark Producer (rocketmq-example, `-w THREADS -s SIZE`) for --seconds,
    with its benchmark Consumer (a new group on the same topic) running beside it: send TPS and
    consume TPS (the means of their reports after the first), average and max send RT as the
    Producer prints them;
  * mqdesk-bench produce (MQDesk's C++ client, the same for both brokers) for RT p50/p99/max,
    which RocketMQ's tool does not report;
  * the broker's CPU time (user + system of the broker processes; Java: broker + NameServer)
    over the benchmark Producer and Consumer's run, per message stored and per message
    consumed (the brokers' own figures over the same window: the benchmark topic's max offsets
    and the benchmark Consumer's committed offsets, read with mqdesk-admin): the figure the load
    of the clients on the same cores cannot move;
  * the broker's peak RSS (VmHWM; Java: broker + NameServer, MQDesk: its one process) and the
    time from starting the broker to its ready line.

Each flush mode runs --runs times, Java and MQDesk alternately; it prints every run's table and,
with several runs, the medians with MQDesk ÷ Java ratios. It is a benchmark, not a test.
"""

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

REPORT = re.compile(r"Send TPS: (\d+) \| Max RT\(ms\): (\d+) \| Average RT\(ms\):\s*([\d.]+)")
CONSUME_REPORT = re.compile(r"Consume TPS: (\d+)")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def free_port_block(width):
    """A port p with p-2 .. p+width-1 free (the Java broker binds listenPort-2 and +1 as well)."""
    for _ in range(200):
        base = free_port()
        if base < 2000 or base > 60000:
            continue
        ports = range(base - 2, base + width)
        try:
            sockets = []
            for p in ports:
                s = socket.socket()
                s.bind(("127.0.0.1", p))
                sockets.append(s)
            for s in sockets:
                s.close()
            return base
        except OSError:
            for s in sockets:
                s.close()
    raise RuntimeError("no free block of ports")


class Process:
    """A child process whose output is collected and watched for a line."""

    def __init__(self, args, log_path, env=None):
        self.log = open(log_path, "w")
        self.lines = []
        self.started = time.monotonic()
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     env=env, start_new_session=True)
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.log.write(line)
            self.log.flush()
            with self.cond:
                self.lines.append((time.monotonic(), line))
                self.cond.notify_all()

    def wait_for(self, pattern, timeout):
        """Seconds from start until a line matching pattern appeared."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for at, line in self.lines:
                    if regex.search(line):
                        return at - self.started
                if self.proc.poll() is not None:
                    raise RuntimeError(f"{self.proc.args[0]} exited ({self.proc.returncode}); see {self.log.name}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise RuntimeError(f"no line matching {pattern!r} within {timeout} s; see {self.log.name}")
                self.cond.wait(min(left, 0.5))

    def output(self):
        with self.cond:
            return [line for _, line in self.lines]

    def status_kib(self, field):
        """A /proc/<pid>/status figure: VmHWM (peak RSS, mapped store files included), RssAnon."""
        try:
            with open(f"/proc/{self.proc.pid}/status") as status:
                for line in status:
                    if line.startswith(field + ":"):
                        return int(line.split()[1])
        except OSError:
            pass
        return 0

    def cpu_seconds(self):
        """User + system CPU time of the process so far (all its threads), in seconds."""
        try:
            with open(f"/proc/{self.proc.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            return 0.0

    def stop(self, timeout=30):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()


def java(classpath, heap, main, *args):
    return ["java", f"-Xmx{heap}", f"-Xms{heap}", "-XX:+UseG1GC", "-cp", classpath, main, *args]


def start_java_cluster(work, classpath, flush_mode, settings):
    """The Java NameServer and broker; returns (processes, namesrv address, seconds to ready)."""
    env = dict(os.environ, ROCKETMQ_HOME=work)
    namesrv_port = free_port()
    broker_port = free_port_block(3)
    with open(f"{work}/namesrv.conf", "w") as conf:
        conf.write(f"listenPort={namesrv_port}\n")
    with open(f"{work}/broker.conf", "w") as conf:
        conf.write("\n".join([
            "brokerClusterName=DefaultCluster", "brokerName=broker-java", "brokerId=0",
            f"namesrvAddr=127.0.0.1:{namesrv_port}", f"listenPort={broker_port}", "brokerIP1=127.0.0.1",
            f"storePathRootDir={work}/store", f"storePathCommitLog={work}/store/commitlog",
            f"flushDiskType={flush_mode}", "autoCreateTopicEnable=true", *settings, ""]))
    home = [f"-Duser.home={work}"]
    namesrv = Process(["java", *home, "-Xmx256m", "-XX:+UseSerialGC", "-cp", classpath,
                       "org.apache.rocketmq.namesrv.NamesrvStartup", "-c", f"{work}/namesrv.conf"],
                      f"{work}/namesrv.log", env)
    namesrv.wait_for(r"boot success", 60)
    broker = Process(["java", *home, "-Xmx1g", "-Xms1g", "-XX:+UseG1GC", "-cp", classpath,
                      "org.apache.rocketmq.broker.BrokerStartup", "-c", f"{work}/broker.conf"],
                     f"{work}/broker.log", env)
    ready = broker.wait_for(r"boot success", 120)
    return [broker, namesrv], f"127.0.0.1:{namesrv_port}", ready


def start_mqdesk(work, binary, flush_mode, settings):
    with open(f"{work}/broker.conf", "w") as conf:
        conf.write("\n".join([f"flushDiskType={flush_mode}", "autoCreateTopicEnable=true", *settings, ""]))
    broker = Process([binary, "-c", f"{work}/broker.conf", "--store", f"{work}/store", "--namesrv-port", "0",
                      "--broker-port", "0"], f"{work}/broker.log")
    ready = broker.wait_for(r"mqdesk-broker ready:", 60)
    namesrv = re.search(r"namesrv=(\S+)", "".join(broker.output())).group(1)
    return [broker], namesrv, ready


def run_for(args, seconds, log_path):
    """Runs a client for `seconds` (then SIGTERM) and returns its output lines."""
    client = Process(args, log_path)
    time.sleep(seconds)
    client.stop(10)
    return client.output()


BENCHMARK_TOPIC = "BenchmarkTest"          # the benchmark Producer's and Consumer's default topic
BENCHMARK_GROUP = "benchmark_consumer"     # the benchmark Consumer's default group


def admin_json_lines(admin, *args):
    run = subprocess.run([admin, *args, "--json"], capture_output=True, text=True, timeout=60)
    return [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]


def benchmark_totals(admin, namesrv):
    """(messages stored in the benchmark topic, messages its Consumer has committed): sums of the
    queues' max offsets and of the group's committed offsets, the brokers' own figures. (Java's
    msgPutTotalTodayNow leaves BenchmarkTest out: Java counts it as a system topic.)"""
    stored = sum(int(q.get("maxOffset", 0)) for q in admin_json_lines(admin, "topicStatus", "-n", namesrv,
                                                                      "-t", BENCHMARK_TOPIC))
    # consumerProgress --json prints one line per group, its queues in "queues".
    consumed = sum(int(q.get("consumerOffset", 0))
                   for line in admin_json_lines(admin, "consumerProgress", "-n", namesrv, "-g", BENCHMARK_GROUP)
                   for q in line.get("queues", []))
    return stored, consumed


def mean(values):
    return sum(values) / len(values) if values else 0.0


def measure(target, opts, flush_mode, root):
    work = tempfile.mkdtemp(prefix=f"{target}-{flush_mode}-", dir=root)
    if target == "java":
        processes, namesrv, ready = start_java_cluster(work, opts.classpath, flush_mode, opts.set)
    else:
        processes, namesrv, ready = start_mqdesk(work, opts.broker, flush_mode, opts.set)
    result = {"ready_s": ready}
    try:
        time.sleep(2)  # registration with the NameServer
        # The benchmark Consumer runs beside the Producer, as RocketMQ's benchmark is run: a new
        # group on the empty topic keeps up with the sends, so its reports are the broker's
        # sustained consume rate while it also takes the writes (a consumer started after the
        # producer would drain the backlog within its first 10 s window and report nothing after).
        cpu_before = sum(p.cpu_seconds() for p in processes)
        totals_before = benchmark_totals(opts.admin, namesrv)
        window_start = time.monotonic()
        consumer = Process(java(opts.classpath, "512m", "org.apache.rocketmq.example.benchmark.Consumer",
                                "-n", namesrv, "-ri", "5000"), f"{work}/consumer.log")
        try:
            consumer.wait_for(r"Consumer Started", 60)
            time.sleep(3)  # its first rebalance
            lines = run_for(java(opts.classpath, "1g", "org.apache.rocketmq.example.benchmark.Producer",
                                 "-n", namesrv, "-w", str(opts.threads), "-s", str(opts.size), "-ri", "5000"),
                            opts.seconds, f"{work}/producer.log")
        finally:
            consumer.stop(10)
        cpu = sum(p.cpu_seconds() for p in processes) - cpu_before
        totals_after = benchmark_totals(opts.admin, namesrv)
        window = time.monotonic() - window_start
        stored, consumed = (after - before for after, before in zip(totals_after, totals_before))
        # The Consumer's own TPS reports start late and swing; the broker's committed offsets
        # say what it consumed over the whole window.
        result["consumed_per_s"] = consumed / window
        result["cpu_s"] = cpu
        if stored > 0:
            result["cpu_us_per_stored"] = cpu * 1e6 / stored
        if consumed > 0:
            result["cpu_us_per_consumed"] = cpu * 1e6 / consumed
        # Each report covers the 10 s before it; the first one includes the JVMs' warm-up.
        reports = [m for m in (REPORT.search(line) for line in lines) if m][1:]
        result["send_tps"] = mean([int(m.group(1)) for m in reports])
        result["rt_avg_ms"] = mean([float(m.group(3)) for m in reports])
        result["rt_max_ms"] = max([int(m.group(2)) for m in reports], default=0)
        consume = [int(m.group(1)) for m in (CONSUME_REPORT.search(line) for line in consumer.output()) if m]
        result["consume_tps"] = mean(consume[1:])

        bench = subprocess.run([opts.bench, "produce", "-n", namesrv, "-t", "CompareJavaRt", "-w", str(opts.threads),
                                "-s", str(opts.size), "--count", str(opts.rt_count), "--json"],
                               capture_output=True, text=True, timeout=600)
        with open(f"{work}/mqdesk-bench.log", "w") as log:
            log.write(bench.stdout + bench.stderr)
        last = [line for line in bench.stdout.splitlines() if line.startswith("{")]
        if last:
            run = json.loads(last[-1])["result"]
            rt = run["rtMicros"]
            result.update(cpp_p50_ms=rt["p50"] / 1000, cpp_p99_ms=rt["p99"] / 1000, cpp_max_ms=rt["max"] / 1000,
                          cpp_tps=run["tps"])
        result["rss_mib"] = sum(p.status_kib("VmHWM") for p in processes) / 1024
        result["anon_mib"] = sum(p.status_kib("RssAnon") for p in processes) / 1024
    finally:
        for p in processes:
            p.stop()
        if not opts.keep:
            shutil.rmtree(work, ignore_errors=True)
    return result


def measure_startup(target, opts, root):
    """One idle start as a test fixture would do it: seconds from the first spawn to ready (Java: the
    NameServer, then the broker, as a test must start both), resident memory once ready (VmRSS, summed),
    and seconds from SIGTERM to exit."""
    work = tempfile.mkdtemp(prefix=f"{target}-startup-", dir=root)
    started = time.monotonic()
    if target == "java":
        processes, _, _ = start_java_cluster(work, opts.classpath, "ASYNC_FLUSH", opts.set)
    else:
        processes, _, _ = start_mqdesk(work, opts.broker, "ASYNC_FLUSH", opts.set)
    ready = time.monotonic() - started
    time.sleep(1)  # the first registration, as a test would find the broker
    rss = sum(p.status_kib("VmRSS") for p in processes) / 1024
    threads = sum(p.status_kib("Threads") for p in processes)
    stopping = time.monotonic()
    for p in processes:
        p.stop()
    stopped = time.monotonic() - stopping
    if not opts.keep:
        shutil.rmtree(work, ignore_errors=True)
    return {"ready_s": ready, "rss_mib": rss, "threads": threads, "stop_s": stopped}


def print_startup(runs):
    """Medians over the runs, Java and MQDesk measured alternately."""
    rows = [("ready_s", "Spawn to ready (Java: NameServer + broker), s", "{:.2f}"),
            ("rss_mib", "Resident memory once ready (VmRSS, all processes), MiB", "{:.0f}"),
            ("threads", "Threads", "{:.0f}"),
            ("stop_s", "SIGTERM to exit, s", "{:.2f}")]
    count = len(runs["java"])
    print(f"\n### An idle broker for a test: start, ready, stop (median of {count} runs each, alternating)\n")
    print("| metric | Java 5.5.0 | MQDesk | MQDesk ÷ Java |")
    print("|---|---:|---:|---:|")
    for key, label, fmt in rows:
        j = sorted(r[key] for r in runs["java"])[count // 2]
        m = sorted(r[key] for r in runs["mqdesk"])[count // 2]
        ratio = f"{m / j:.3f}" if j else "–"
        print(f"| {label} | {fmt.format(j)} | {fmt.format(m)} | {ratio} |")
    sys.stdout.flush()


ROWS = [
    ("send_tps", "Send TPS (RocketMQ benchmark Producer, Consumer beside it)", "{:.0f}", True),
    ("rt_avg_ms", "Send RT avg, ms (benchmark Producer)", "{:.3f}", False),
    ("rt_max_ms", "Send RT max, ms (benchmark Producer)", "{:.0f}", False),
    ("consume_tps", "Consume TPS (RocketMQ benchmark Consumer, while the Producer sends)", "{:.0f}", True),
    ("consumed_per_s", "Messages consumed per second over the run (the group's committed offsets)", "{:.0f}", True),
    ("cpp_tps", "Send TPS (mqdesk-bench produce)", "{:.0f}", True),
    ("cpp_p50_ms", "Send RT p50, ms (mqdesk-bench produce)", "{:.3f}", False),
    ("cpp_p99_ms", "Send RT p99, ms (mqdesk-bench produce)", "{:.3f}", False),
    ("cpp_max_ms", "Send RT max, ms (mqdesk-bench produce)", "{:.1f}", False),
    ("cpu_s", "Broker CPU time over the benchmark Producer + Consumer run (user + sys), s", "{:.1f}", False),
    ("cpu_us_per_stored", "Broker CPU time per message stored, µs", "{:.1f}", False),
    ("cpu_us_per_consumed", "Broker CPU time per message consumed, µs", "{:.1f}", False),
    ("rss_mib", "Broker peak RSS (VmHWM, mapped store pages included), MiB", "{:.0f}", False),
    ("anon_mib", "Broker anonymous memory at the end (RssAnon: heap, stacks), MiB", "{:.0f}", False),
    ("ready_s", "Start to ready, s", "{:.2f}", False),
]


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def medians(results):
    """Per metric, the median over the runs that have it."""
    keys = {key for result in results for key in result}
    return {key: median([r[key] for r in results if key in r]) for key in keys}


def print_table(flush_mode, java_result, mqdesk_result, opts, title=""):
    print(f"\n### {flush_mode}, {opts.threads} threads, {opts.size} B messages{title}\n")
    print("| metric | Java 5.5.0 | MQDesk | MQDesk ÷ Java |")
    print("|---|---:|---:|---:|")
    for key, label, fmt, _ in ROWS:
        j, m = java_result.get(key), mqdesk_result.get(key)
        if j is None and m is None:
            continue
        ratio = f"{m / j:.2f}" if j and m is not None else "–"
        shown = [fmt.format(v) if v is not None else "–" for v in (j, m)]
        print(f"| {label} | {shown[0]} | {shown[1]} | {ratio} |")
    sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--broker", required=True, help="mqdesk-broker binary")
    parser.add_argument("--bench", required=True, help="mqdesk-bench binary")
    parser.add_argument("--admin", required=True, help="mqdesk-admin binary (the brokers' message counts)")
    parser.add_argument("--runs", type=int, default=3, help="runs per flush mode, Java and MQDesk alternately")
    parser.add_argument("--classpath-file", required=True, help="scripts/compare-java/target/classpath.txt")
    parser.add_argument("--modes", default="ASYNC_FLUSH,SYNC_FLUSH")
    parser.add_argument("--threads", type=int, default=64)
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--seconds", type=int, default=40,
                        help="benchmark Producer run per broker and mode (it reports every 5 s from 10 s on)")
    parser.add_argument("--rt-count", type=int, default=100000, help="messages mqdesk-bench sends for the RT figures")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a broker.conf line for both brokers (repeatable), e.g. writeWithoutMmap=true")
    parser.add_argument("--keep", action="store_true", help="keep the stores and logs")
    parser.add_argument("--startup", type=int, default=0, metavar="RUNS",
                        help="only start, measure and stop each broker idle RUNS times (a test fixture's view: "
                             "spawn to ready, memory, stop), no load")
    opts = parser.parse_args()
    with open(opts.classpath_file) as f:
        opts.classpath = f.read().strip()
    root = tempfile.mkdtemp(prefix="mqdesk-compare-java-")
    print(f"compare-java: stores and logs in {root}", file=sys.stderr)
    if opts.startup:
        runs = {"java": [], "mqdesk": []}
        for _ in range(opts.startup):
            for target in ("java", "mqdesk"):
                runs[target].append(measure_startup(target, opts, root))
        print_startup(runs)
        opts.modes = ""
    for flush_mode in filter(None, opts.modes.split(",")):
        runs = {"java": [], "mqdesk": []}
        for run in range(1, opts.runs + 1):
            for target in ("java", "mqdesk"):
                print(f"compare-java: {flush_mode} run {run} of {opts.runs} against {target} …", file=sys.stderr)
                runs[target].append(measure(target, opts, flush_mode, root))
            print_table(flush_mode, runs["java"][-1], runs["mqdesk"][-1], opts, f", run {run} of {opts.runs}")
        if opts.runs > 1:
            print_table(flush_mode, medians(runs["java"]), medians(runs["mqdesk"]), opts,
                        f", median of {opts.runs} runs")
    if not opts.keep:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
