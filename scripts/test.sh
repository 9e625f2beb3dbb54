#!/usr/bin/env bash
# Builds and runs every MQDesk test through CTest, in four phases, each timed:
#   1. the Release build's whole suite;
#   2. the engine suites and broker/grpc's (label asan) under AddressSanitizer + UndefinedBehaviorSanitizer;
#   3. every libFuzzer target for a few seconds over its seed corpus (label "fuzz";
#      MQDESK_TEST_FUZZ=0 skips it), from the same ASan build. scripts/fuzz.sh runs them longer,
#      optimised (the fuzz preset);
#   4. the engine suites under ThreadSanitizer (MQDESK_TEST_TSAN=0 skips it).
# The sanitizer presets build only the engine and what they run (no Qt UI).
# Installs missing Debian packages first. Extra arguments go to every ctest run.
# Tests run side by side: most of their time is spent waiting (on fsync, on sockets, on a JVM's
# start), so the Release suite runs nproc+1 at once and the sanitizer and fuzz phases nproc
# (MQDESK_TEST_JOBS overrides both). The longest tests carry a CTest COST so they start first.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh

jobs=$(nproc)
release_test_jobs=${MQDESK_TEST_JOBS:-$((jobs + 1))}
engine_test_jobs=${MQDESK_TEST_JOBS:-$jobs}
phases=()
phase_start=0
begin_phase() { echo "== $1"; phase_name=$1; phase_start=$(date +%s); }
end_phase() { phases+=("$(printf '%5d s  %s' $(($(date +%s) - phase_start)) "$phase_name")"); }
report_phases() {
  echo "== Time per phase"
  printf '%s\n' "${phases[@]}"
}
trap report_phases EXIT

begin_phase "Release build and full test suite"
cmake --preset release >/dev/null
cmake --build --preset release -j "$jobs"
# The conformance tests need their clients from npm, as pinned by each directory's
# package-lock.json: ali-ons (4.x remoting) in tests/conformance, the RocketMQ 5 Node SDK (gRPC) in
# tests/conformance/grpc.
for conformance in tests/conformance tests/conformance/grpc; do
  if [[ ! -e $conformance/node_modules/.package-lock.json ||
        $conformance/package-lock.json -nt $conformance/node_modules/.package-lock.json ]]; then
    echo "== npm ci in $conformance"
    if ! (cd "$conformance" && npm ci --no-audit --no-fund --loglevel=error >/dev/null); then
      echo "test.sh: npm ci failed in $conformance (it needs the npm registry; see the errors above)" >&2
      exit 1
    fi
  fi
done
# The Python conformance tests need the RocketMQ 5 Python SDK in a venv, as pinned by
# tests/conformance/python/requirements.txt (from PyPI); remade when that file changes.
venv=tests/conformance/python/.venv
if [[ ! -e $venv/.installed || tests/conformance/python/requirements.txt -nt $venv/.installed ]]; then
  echo "== pip install into $venv"
  rm -rf "$venv"
  if ! { python3 -m venv "$venv" &&
         "$venv/bin/pip" install --disable-pip-version-check --no-input -q \
           -r tests/conformance/python/requirements.txt; }; then
    echo "test.sh: making $venv failed (it needs python3-venv and the PyPI registry; see the errors above)" >&2
    exit 1
  fi
  touch "$venv/.installed"
fi
# The pytest plugin's tests (integrations/python) run in their own venv: pytest and the SDK as pinned
# by integrations/python/tests/requirements.txt, and the plugin itself installed editable (so its
# source is what runs); remade when either file changes.
venv=integrations/python/.venv
if [[ ! -e $venv/.installed || integrations/python/tests/requirements.txt -nt $venv/.installed ||
      integrations/python/pyproject.toml -nt $venv/.installed ]]; then
  echo "== pip install into $venv"
  rm -rf "$venv"
  if ! { python3 -m venv "$venv" &&
         "$venv/bin/pip" install --disable-pip-version-check --no-input -q \
           -r integrations/python/tests/requirements.txt &&
         "$venv/bin/pip" install --disable-pip-version-check --no-input -q -e integrations/python; }; then
    echo "test.sh: making $venv failed (it needs python3-venv and the PyPI registry; see the errors above)" >&2
    exit 1
  fi
  touch "$venv/.installed"
fi
ctest --preset release -j "$release_test_jobs" "$@"
end_phase

begin_phase "Engine tests under AddressSanitizer + UndefinedBehaviorSanitizer"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$jobs"
ctest --preset asan -j "$engine_test_jobs" "$@"
end_phase

if [[ ${MQDESK_TEST_FUZZ:-1} == 1 ]]; then
begin_phase "Fuzz targets (ASan build), a few seconds each over their seed corpora"
ctest --preset asan-fuzz -j "$engine_test_jobs" "$@"
end_phase
fi

if [[ ${MQDESK_TEST_TSAN:-1} == 1 ]]; then
begin_phase "Engine tests under ThreadSanitizer"
cmake --preset tsan >/dev/null
cmake --build --preset tsan -j "$jobs"
ctest --preset tsan -j "$engine_test_jobs" "$@"
end_phase
fi

