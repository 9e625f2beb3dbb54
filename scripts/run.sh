#!/usr/bin/env bash
# Builds MQDesk (Release) and runs its main job. Until the broker and the desktop app exist
# that is the store benchmark: it measures this machine's disk (fdatasync latency, sequential
# write bandwidth) and the commit log in each flush mode against it.
# Installs missing Debian packages first. Arguments replace the default benchmark run, e.g.
#   scripts/run.sh store --dir /tmp/mqdesk-bench --flush sync --threads 64 --size 1024 --count 200000
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake --preset release -DMQDESK_BUILD_TESTS=OFF >/dev/null
cmake --build --preset release -j "$(nproc)" --target mqdesk-bench mqdesk-admin

bench=build/release/app/mqdesk-bench/mqdesk-bench
if (($# > 0)); then
  exec "$bench" "$@"
fi

workdir=$(mktemp -d "${TMPDIR:-/tmp}/mqdesk-bench.XXXXXX")
trap 'rm -rf "$workdir"' EXIT
for flush in async async-pool sync; do
  threads=1
  [[ $flush == sync ]] && threads=64
  echo "== mqdesk-bench store --flush $flush --threads $threads --size 1024 --count 200000"
  "$bench" store --dir "$workdir/$flush" --flush "$flush" --threads "$threads" --size 1024 --count 200000 \
    --file-size 268435456
done
