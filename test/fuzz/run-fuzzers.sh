#!/usr/bin/env bash
# Runs each libFuzzer target of a TORCH_TIDY_FUZZ build for SECONDS, starting
# from its committed seeds (test/fuzz/corpus/<target>/). New inputs go to
# BUILD_DIR/fuzz/<target>/corpus, never into the committed seeds; a crash is
# saved in BUILD_DIR/fuzz/<target>/ and fails the run. FUZZ_JOBS targets
# (default 2, the cores of CI's machine) run at once, each on one core; their
# results are printed in the targets' order.
#
#   run-fuzzers.sh BUILD_DIR SECONDS [TARGET...]     (default: every target)
set -uo pipefail

build=$1
seconds=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -gt 0 ]; then
  targets=("$@")
else
  # The output fuzzers first: they write and parse huge strings, minutes of
  # the smoke run, while the others take seconds on the other core.
  targets=(sarif_output_fuzzer json_output_fuzzer)
  for source in "$here"/*_fuzzer.cpp; do
    target=$(basename "$source" .cpp)
    [[ " ${targets[*]} " == *" $target "* ]] || targets+=("$target")
  done
fi
jobs=${FUZZ_JOBS:-2}

# Inputs up to this size; the output fuzzers make huge strings themselves.
max_len() {
  case $1 in
    json_output_fuzzer | sarif_output_fuzzer) echo 4096 ;;
    *) echo 16384 ;;
  esac
}

export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

# Runs one target; its verdict goes to BUILD_DIR/fuzz/<target>/result, its
# exit status is the fuzzer's.
fuzz_one() {
  local target=$1 exe work status start elapsed runs cov
  exe=$build/test/fuzz/$target
  work=$build/fuzz/$target
  mkdir -p "$work/corpus"
  # FUZZ_RUNS (the CI smoke run): a fixed number of inputs from a fixed seed,
  # so that a run's verdict does not depend on the machine's speed or luck.
  if [ -n "${FUZZ_RUNS:-}" ]; then
    budget=(-runs="$FUZZ_RUNS" -seed=1)
  else
    budget=(-max_total_time="$seconds")
  fi
  options=("${budget[@]}" -timeout=25 -rss_limit_mb=4096
           -max_len="$(max_len "$target")" -print_final_stats=1
           -artifact_prefix="$work/")
  dict=$here/dict/${target%_fuzzer}.dict
  [ -f "$dict" ] && options+=(-dict="$dict")
  start=$(date +%s)
  "$exe" "${options[@]}" "$work/corpus" "$here/corpus/$target" >"$work/log" 2>&1
  status=$?
  elapsed=$(( $(date +%s) - start ))
  runs=$(grep -a '^stat::number_of_executed_units:' "$work/log" | tail -1 | tr -dc 0-9)
  cov=$(grep -ao 'cov: [0-9]*' "$work/log" | tail -1)
  if [ $status -eq 0 ]; then
    echo "fuzz: $target: ${runs:-?} inputs in ${elapsed} s, ${cov:-cov: ?}" >"$work/result"
  else
    { echo "fuzz: $target: FAILED (exit $status) after ${elapsed} s; log: $work/log"
      grep -av '^#' "$work/log" | tail -40; } >"$work/result"
  fi
  return $status
}

pids=()
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
    wait -n
  done
  fuzz_one "$target" &
  pids+=($!)
done

failed=()
for i in "${!targets[@]}"; do
  wait "${pids[$i]}" || failed+=("${targets[$i]}")
  cat "$build/fuzz/${targets[$i]}/result"
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: ${#failed[@]} of ${#targets[@]} fuzzers failed: ${failed[*]}"
  exit 1
fi
if [ -n "${FUZZ_RUNS:-}" ]; then
  echo "fuzz: ${#targets[@]} fuzzers ran ${FUZZ_RUNS} inputs each without a finding"
else
  echo "fuzz: ${#targets[@]} fuzzers ran ${seconds} s each without a finding"
fi
