#!/usr/bin/env bash
# MQDesk beside the Java broker (RocketMQ 5.5.0), same machine, same run: RocketMQ's benchmark
# Producer and Consumer and mqdesk-bench against each, ASYNC_FLUSH and SYNC_FLUSH, 64 threads,
# 1 KiB, three runs per mode (--runs), a table per run and one of medians with MQDesk ÷ Java
# ratios, the brokers' CPU time per message among them (see scripts/compare_java.py).
# A benchmark, not a test: run it on an otherwise idle machine. Extra arguments go to
# compare_java.py (e.g. --seconds 60 --modes SYNC_FLUSH --keep).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build build/release -j "$(nproc)" --target mqdesk-broker mqdesk-bench mqdesk-admin
# The Java broker, NameServer and benchmark tool from Maven Central (pinned in the pom).
mvn -B -q -f scripts/compare-java/pom.xml package

exec python3 scripts/compare_java.py \
  --broker build/release/app/mqdesk-broker/mqdesk-broker \
  --bench build/release/app/mqdesk-bench/mqdesk-bench \
  --admin build/release/app/mqdesk-admin/mqdesk-admin \
  --classpath-file scripts/compare-java/target/classpath.txt "$@"
