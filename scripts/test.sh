#!/usr/bin/env bash
# Builds and runs every MQDesk test through CTest: the Release build's whole suite, then the
# engine suites again under AddressSanitizer + UndefinedBehaviorSanitizer.
# Installs missing Debian packages first. Extra arguments go to both ctest runs.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh

jobs=$(nproc)

echo "== Release build and full test suite"
cmake --preset release >/dev/null
cmake --build --preset release -j "$jobs"
# The conformance tests need ali-ons from npm, as pinned by tests/conformance/package-lock.json.
conformance=tests/conformance
if [[ ! -e $conformance/node_modules/.package-lock.json ||
      $conformance/package-lock.json -nt $conformance/node_modules/.package-lock.json ]]; then
  echo "== npm ci in $conformance"
  if ! (cd "$conformance" && npm ci --no-audit --no-fund --loglevel=error >/dev/null); then
    echo "test.sh: npm ci failed in $conformance (it needs the npm registry; see the errors above)" >&2
    exit 1
  fi
fi
ctest --preset release -j 1 "$@"

echo "== Engine tests under AddressSanitizer + UndefinedBehaviorSanitizer"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$jobs"
ctest --preset asan -j 1 "$@"
