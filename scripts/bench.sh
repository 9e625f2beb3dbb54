#!/usr/bin/env bash
# One command for the write path's figures (issue 16): builds the Release tree, then runs the
# store benchmark in every row of the table (ASYNC 1 and 64 threads, SYNC 64 threads), the
# loopback produce benchmark against its echo baseline and the explorer benchmark, each --runs
# times, and prints one table of ratios, each against a limit measured in the same run.
#   scripts/bench.sh [--runs N] [--count N] [--dir DIR]
# Measure on a quiet machine: other load changes the figures (the ratios less than the rates).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)" --target mqdesk-bench mqdesk-broker >/dev/null
exec python3 scripts/bench.py "$@"
