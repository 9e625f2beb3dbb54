#!/usr/bin/env python3
"""The benchmark table of issue 16: every row a ratio against a limit the same run measured.

Run by scripts/bench.sh (which builds the Release tree first):
    scripts/bench.sh [--runs N] [--count N] [--dir DIR]

Rows (each measured --runs times; the table shows every run and the median):
  store ASYNC  1 thread  1 KiB  store MB/s / sequential pwrite+fdatasync MB/s      goal >= 0.8
  store ASYNC 64 threads 1 KiB  TPS / TPS of the 1-thread run just before          goal >= 1.0
  store SYNC  64 threads 1 KiB  TPS / (64 / fdatasync p50): the closed-loop limit  goal >= 0.5
  store SYNC  64 threads 1 KiB  put p50 / fdatasync p50                            goal <= 2
  the two SYNC rows again with writeWithoutMmap=true (the setting for SYNC_FLUSH: README)
  produce 64 threads 1 KiB over loopback to mqdesk-broker / the same client
                                against a server that answers without storing     goal >= 0.9
  explorer verify MB/s / a cached read() of the same commit log                   (no goal)

Baselines come from mqdesk-bench itself (`store` measures fdatasync and sequential writes on the
same directory, `produce --baseline` the echo server), so every ratio compares figures taken in
one run on one machine. Prints figures only; nothing here fails on a time.
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "build", "release", "app")
BENCH = os.path.join(BIN, "mqdesk-bench", "mqdesk-bench")
BROKER = os.path.join(BIN, "mqdesk-broker", "mqdesk-broker")
READY = re.compile(r"^mqdesk-broker ready: namesrv=(\S+) broker=(\S+)")


def bench(*args):
    """Runs mqdesk-bench with --json and returns its object (progress on stderr is dropped)."""
    out = subprocess.run([BENCH, *args, "--json"], check=True, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True).stdout
    return json.loads(out)


def store_run(work, flush, threads, count, settings=()):
    directory = os.path.join(work, "store-%s-%d" % (flush, threads))
    shutil.rmtree(directory, ignore_errors=True)
    extra = [arg for setting in settings for arg in ("--set", setting)]
    try:
        return bench("store", "--dir", directory, "--flush", flush, "--threads", str(threads),
                     "--size", "1024", "--count", str(count), *extra)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def produce_run(work, count):
    """A fresh mqdesk-broker on free loopback ports, the produce benchmark with its echo baseline."""
    directory = os.path.join(work, "broker")
    shutil.rmtree(directory, ignore_errors=True)
    broker = subprocess.Popen([BROKER, "--store", os.path.join(directory, "store"), "--namesrv-port", "0",
                               "--broker-port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = broker.stdout.readline()
        match = READY.match(line)
        if not match:
            raise RuntimeError("mqdesk-broker printed no ready line: %r" % line)
        return bench("produce", "-n", match.group(1), "--threads", "64", "--size", "1024",
                     "--count", str(count), "--baseline")
    finally:
        broker.terminate()
        broker.wait(timeout=30)
        shutil.rmtree(directory, ignore_errors=True)


def explore_run(work, count):
    directory = os.path.join(work, "explore")
    try:
        return bench("explore", "--dir", directory, "--count", str(count))
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def measure(args, work):
    rows = {name: [] for name in ("async1", "async64", "sync64", "syncp50", "sync64w", "syncp50w", "produce",
                                  "explore")}
    details = []
    for run in range(args.runs):
        a1 = store_run(work, "async", 1, args.count)
        a64 = store_run(work, "async", 64, args.count)
        s64 = store_run(work, "sync", 64, max(args.count // 10, 1000))
        s64w = store_run(work, "sync", 64, max(args.count // 10, 1000), ["writeWithoutMmap=true"])
        rows["async1"].append(a1["mb_per_s"] / a1["baseline"]["seq_write_mb_per_s"])
        rows["async64"].append(a64["tps"] / a1["tps"])
        for suffix, sync in (("", s64), ("w", s64w)):
            fsync_p50_us = sync["baseline"]["fdatasync_us_p50"]
            rows["sync64" + suffix].append(sync["tps"] / (64 / (fsync_p50_us / 1e6)))
            rows["syncp50" + suffix].append(sync["put_latency_us"]["p50"] / fsync_p50_us)
        p = produce_run(work, max(args.count // 10, 1000))
        rows["produce"].append(p["ratioToBaseline"])
        e = explore_run(work, args.count * 2)
        rows["explore"].append(e["ratio_verify_to_cached_read"])
        details.append(
            "run %d: async1 %.0f MB/s vs seq write %.0f MB/s; async64 %.0f vs async1 %.0f msg/s; "
            "sync64 %.0f msg/s, put p50 %.0f us, fdatasync p50 %d us; sync64 writeWithoutMmap %.0f msg/s, "
            "put p50 %.0f us, fdatasync p50 %d us; produce %.0f vs echo %.0f msg/s; "
            "verify %.0f MB/s vs cached read %.0f MB/s"
            % (run + 1, a1["mb_per_s"], a1["baseline"]["seq_write_mb_per_s"], a64["tps"], a1["tps"], s64["tps"],
               s64["put_latency_us"]["p50"], s64["baseline"]["fdatasync_us_p50"], s64w["tps"],
               s64w["put_latency_us"]["p50"], s64w["baseline"]["fdatasync_us_p50"], p["result"]["tps"],
               p["baseline"]["tps"], e["verify_mb_per_s"], e["cached_read_mb_per_s"]))
    return rows, details


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of every row (default 3)")
    parser.add_argument("--count", type=int, default=1000000,
                        help="messages per ASYNC store run (SYNC and produce runs use a tenth)")
    parser.add_argument("--dir", default=None, help="work directory on the disk to measure (default: a temp dir)")
    args = parser.parse_args()
    for binary in (BENCH, BROKER):
        if not os.access(binary, os.X_OK):
            sys.exit("bench.py: %s is missing: build the release preset first (scripts/bench.sh does)" % binary)
    work = args.dir or tempfile.mkdtemp(prefix="mqdesk-bench-")
    os.makedirs(work, exist_ok=True)
    started = time.time()
    try:
        rows, details = measure(args, work)
    finally:
        if not args.dir:
            shutil.rmtree(work, ignore_errors=True)
    table = [
        ("async1", "store ASYNC, 1 thread, 1 KiB: MB/s / seq pwrite+fdatasync MB/s", ">= 0.8", lambda v: v >= 0.8),
        ("async64", "store ASYNC, 64 threads: TPS / TPS at 1 thread", ">= 1.0", lambda v: v >= 1.0),
        ("sync64", "store SYNC, 64 threads: TPS / (64 / fdatasync p50)", ">= 0.5", lambda v: v >= 0.5),
        ("syncp50", "store SYNC, 64 threads: put p50 / fdatasync p50", "<= 2", lambda v: v <= 2),
        ("sync64w", "  the same, writeWithoutMmap=true: TPS / (64 / fdatasync p50)", ">= 0.5", lambda v: v >= 0.5),
        ("syncp50w", "  the same, writeWithoutMmap=true: put p50 / fdatasync p50", "<= 2", lambda v: v <= 2),
        ("produce", "produce, 64 threads, loopback: TPS / echo baseline", ">= 0.9", lambda v: v >= 0.9),
        ("explore", "explorer verify MB/s / cached read() MB/s", "-", None),
    ]
    print("%-62s %-24s %7s %6s  %s" % ("row", "runs", "median", "goal", "met"))
    for key, title, goal, met in table:
        values = rows[key]
        median = statistics.median(values)
        verdict = "-" if met is None else ("met" if met(median) else "NOT MET")
        print("%-62s %-24s %7.3f %6s  %s" % (title, " ".join("%.3f" % v for v in values), median, goal, verdict))
    print()
    for line in details:
        print(line)
    print("(%d runs, %.0f s, work dir %s)" % (args.runs, time.time() - started, args.dir or "a temp dir"))


if __name__ == "__main__":
    main()
