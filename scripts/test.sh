#!/usr/bin/env bash
# make test: every part of the test run, each timed. At the end (also after a
# failure) it prints the wall time of each part, ctest's time by label and its
# ten slowest tests (scripts/ci/test-times.py). The parts are the Makefile's
# targets, so each can be run alone.
#   scripts/test.sh            (make test; BUILD, INSTRUMENTED_BUILD, JOBS as in the Makefile)
set -uo pipefail
cd "$(dirname "$0")/.."
make=${MAKE:-make}
build=${BUILD:-build}
times=$(mktemp)
trap 'rm -f "$times"' EXIT
# The report reads this run's JUnit file only, never an earlier run's.
rm -f "$build/ctest-junit.xml"

report() {
  python3 scripts/ci/test-times.py --parts "$times" --build "$build" \
          --junit "$build/ctest-junit.xml"
}

part() {
  local name=$1 start status
  shift
  echo "== make test: $name"
  start=$(date +%s%N)
  "$@"
  status=$?
  printf '%s\t%d\t%d\n' "$name" $(( ($(date +%s%N) - start) / 1000000 )) "$status" >>"$times"
  if [ $status -ne 0 ]; then
    echo "== make test: $name failed (exit $status)"
    report
    exit $status
  fi
}

# Each target's prerequisites are done by the parts before it (a no-op then).
part deps "$make" --no-print-directory deps
part build "$make" --no-print-directory build
part ctest "$make" --no-print-directory ctest
part instrumented-build "$make" --no-print-directory instrumented-build
part fuzz-smoke "$make" --no-print-directory fuzz-smoke
part sanitize-smoke "$make" --no-print-directory sanitize-smoke
report
