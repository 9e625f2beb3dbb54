#!/usr/bin/env bash
# Builds MQDesk (Release) and runs it: the desktop app (mqdesk) when a display exists, else the
# headless broker (mqdesk-broker, NameServer + Broker) with its store in the user's data folder;
# Ctrl-C stops it cleanly. Installs missing Debian packages first.
#   scripts/run.sh [broker flags…]           e.g. --namesrv-port 0 --broker-port 0 --store DIR
#   scripts/run.sh bench [mqdesk-bench args…]  the benchmark (default: the store in all flush modes)
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake --preset release -DMQDESK_BUILD_TESTS=OFF >/dev/null
cmake --build --preset release -j "$(nproc)" --target mqdesk mqdesk-broker mqdesk-bench mqdesk-admin

if [[ ${1:-} == bench ]]; then
  shift
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
  exit 0
fi

if [[ -n ${DISPLAY:-} || -n ${WAYLAND_DISPLAY:-} ]]; then
  exec build/release/app/mqdesk/mqdesk "$@" # its store defaults to the app data folder
fi
store="${XDG_DATA_HOME:-$HOME/.local/share}/MQDesk/mqdesk/store"
mkdir -p "$store"
exec build/release/app/mqdesk-broker/mqdesk-broker --store "$store" "$@"
