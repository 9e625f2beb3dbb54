#!/usr/bin/env bash
# Builds the fuzz preset (clang-14, libFuzzer + ASan + UBSan) and runs every libFuzzer target in
# tests/fuzz for SECONDS each (default 60), starting from its seed corpus, MQDESK_FUZZ_JOBS
# targets at a time (default 1); with MQDESK_FUZZ_RUNS=N a target also stops after N executions.
# Prints each target's executions and exec/s, and any crash with
# the input libFuzzer saved.
#   scripts/fuzz.sh [SECONDS] [TARGET...]
# New inputs found go to build/fuzz/tests/fuzz/corpus/<target>/ (not the committed seeds);
# crash inputs to build/fuzz/crashes/<target>/. Exits 1 when any target crashed.
# ASan keeps 2 frames of each allocation's stack here (malloc_context_size=2) and does not fill new
# memory: a third more executions, and every memory error is still caught. Reproduce a crash with
# full reports: ASAN_OPTIONS=detect_leaks=1 build/fuzz/tests/fuzz/<target> <crash file>.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true

scripts/install-deps.sh
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$(nproc)"

build=build/fuzz
targets=("$@")
if ((${#targets[@]} == 0)); then
  mapfile -t targets < <(cd "$build/tests/fuzz" && ls fuzz_* | grep -v '\.' | sort)
fi

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:malloc_context_size=2:max_malloc_fill_size=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
jobs=${MQDESK_FUZZ_JOBS:-1}
runs_limit=()
if [[ -n ${MQDESK_FUZZ_RUNS:-} ]]; then runs_limit=(-runs="$MQDESK_FUZZ_RUNS"); fi

# Runs one target; its summary line goes to $build/crashes/<target>.summary.
run_target() {
  local target=$1 work=$build/tests/fuzz/corpus/$1 crashes=$build/crashes/$1 log=$build/crashes/$1.log
  mkdir -p "$work" "$crashes"
  local start status=0 elapsed runs rate result
  start=$(date +%s)
  "$build/tests/fuzz/$target" -max_total_time="$seconds" "${runs_limit[@]}" -rss_limit_mb=2048 -timeout=10 \
    -print_final_stats=1 -artifact_prefix="$crashes/" "$work" "tests/fuzz/corpus/$target" >"$log" 2>&1 || status=$?
  elapsed=$(($(date +%s) - start))
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  if ((status == 0)); then
    result=clean
  else
    result="CRASH (exit $status): $(ls -t "$crashes" | head -1 | sed "s|^|$crashes/|"), log $log"
  fi
  printf '%-26s %14s %10s %8s  %s\n' "$target" "${runs:-?}" "${rate:-?}" "$elapsed" "$result" >"$build/crashes/$target.summary"
  return "$status"
}

mkdir -p "$build/crashes"
printf '%-26s %14s %10s %8s  %s\n' target executions exec/s seconds result
failed=()
running=0
for target in "${targets[@]}"; do
  run_target "$target" &
  running=$((running + 1))
  if ((running >= jobs)); then
    wait -n || true
    running=$((running - 1))
  fi
done
wait || true
for target in "${targets[@]}"; do
  cat "$build/crashes/$target.summary"
  if ! grep -q ' clean$' "$build/crashes/$target.summary"; then
    failed+=("$target")
    grep -m 1 -A 25 -E '^==[0-9]+==ERROR|runtime error|deadly signal|out-of-memory|timeout' \
      "$build/crashes/$target.log" || true
  fi
done

if ((${#failed[@]} > 0)); then
  echo "fuzz.sh: ${failed[*]} crashed; reproduce with $build/tests/fuzz/<target> <crash file>" >&2
  exit 1
fi
