#!/usr/bin/env bash
# Builds the fuzz preset (clang-14, libFuzzer + ASan + UBSan) and runs every libFuzzer target in
# tests/fuzz for SECONDS each (default 60), one after another, starting from its seed corpus.
# Prints each target's executions and exec/s, and any crash with the input libFuzzer saved.
#   scripts/fuzz.sh [SECONDS] [TARGET...]
# New inputs found go to build/fuzz/tests/fuzz/corpus/<target>/ (not the committed seeds);
# crash inputs to build/fuzz/crashes/<target>/. Exits 1 when any target crashed.
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

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
failed=()
printf '%-26s %14s %10s %8s  %s\n' target executions exec/s seconds result
for target in "${targets[@]}"; do
  work=$build/tests/fuzz/corpus/$target
  crashes=$build/crashes/$target
  log=$build/crashes/$target.log
  mkdir -p "$work" "$crashes"
  start=$(date +%s)
  status=0
  "$build/tests/fuzz/$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
    -print_final_stats=1 -artifact_prefix="$crashes/" "$work" "tests/fuzz/corpus/$target" >"$log" 2>&1 || status=$?
  elapsed=$(($(date +%s) - start))
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  if ((status == 0)); then
    result=clean
  else
    result="CRASH (exit $status): $(ls -t "$crashes" | head -1 | sed "s|^|$crashes/|"), log $log"
    failed+=("$target")
  fi
  printf '%-26s %14s %10s %8s  %s\n' "$target" "${runs:-?}" "${rate:-?}" "$elapsed" "$result"
  if ((status != 0)); then
    grep -m 1 -A 25 -E '^==[0-9]+==ERROR|runtime error|deadly signal|out-of-memory|timeout' "$log" || true
  fi
done

if ((${#failed[@]} > 0)); then
  echo "fuzz.sh: ${failed[*]} crashed; reproduce with $build/tests/fuzz/<target> <crash file>" >&2
  exit 1
fi
