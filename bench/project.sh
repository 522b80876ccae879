#!/usr/bin/env bash
# torch-tidy project benchmark (not a test: it measures, it asserts nothing).
#
#   bench/project.sh                  # a generated project of 41 files, -j 2
#   bench/project.sh --files 80 -j 4
#   bench/project.sh --all            # also re-measure the stateless tools per scenario
#
# bench/gen_project.py writes a LibTorch project (models, data, losses, training,
# evaluation; deterministic). Four scenarios, in one run:
#   cold       torch-tidy with an empty cache
#   unchanged  the same again
#   cpp-edit   one .cpp edited (a function appended)
#   header     one header edited (include/losses.h, included by the loss files)
# Three tools, each at the same -j:
#   clang++ -fsyntax-only     every file of the database (xargs -P)
#   run-clang-tidy-19         stock clang-tidy, one check: bugprone-unused-return-value on Tensor::to
#   torch-tidy                all its rules, its cache in a fresh directory
# clang++ and run-clang-tidy keep nothing between runs: every scenario costs them what cold
# costs, so they are measured once unless --all. Each command runs under
# /usr/bin/time -f '%e %U %S %M': wall, CPU (user + system, children included) and peak
# memory (the largest process). Ratios are against clang++ -fsyntax-only.
# Env: TORCH_TIDY, CLANGXX (clang++-19), RUN_CLANG_TIDY (run-clang-tidy-19),
#      CLANG_TIDY (clang-tidy-19), TORCH_FLAGS (-std=c++17 -I<LibTorch's API headers>).
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TORCH_TIDY="${TORCH_TIDY:-$ROOT/build/tool/torch-tidy}"
CLANGXX="${CLANGXX:-clang++-19}"
RUN_CLANG_TIDY="${RUN_CLANG_TIDY:-run-clang-tidy-19}"
CLANG_TIDY="${CLANG_TIDY:-clang-tidy-19}"
TORCH_FLAGS="${TORCH_FLAGS:--std=c++17 -I/usr/include/torch/csrc/api/include}"
TIME=/usr/bin/time
FILES=41
JOBS=2
ALL=0
while [ $# -gt 0 ]; do
  case "$1" in
    --files) FILES="$2"; shift 2 ;;
    -j|--jobs) JOBS="$2"; shift 2 ;;
    --all) ALL=1; shift ;;
    *) echo "bench/project.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[ -x "$TIME" ] || { echo "bench: /usr/bin/time not found (apt-get install time)" >&2; exit 2; }
[ -x "$TORCH_TIDY" ] || { echo "bench: $TORCH_TIDY not found (build first)" >&2; exit 2; }

WORK="$(mktemp -d /tmp/torch-tidy-project.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
PROJ="$WORK/proj"
python3 "$ROOT/bench/gen_project.py" "$PROJ" --files "$FILES" --flags "$TORCH_FLAGS" >&2 || exit 2
mapfile -t SOURCES < <(python3 -c "
import json, sys
for e in json.load(open(sys.argv[1])): print(e['file'])" "$PROJ/compile_commands.json")
read -r -a FLAGS <<< "$TORCH_FLAGS"
FLAGS+=("-I$PROJ/include")
TIDY_CONFIG="{CheckOptions: {bugprone-unused-return-value.CheckedFunctions: '::at::Tensor::to'}}"

echo "bench: ${#SOURCES[@]} files, -j $JOBS, load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

# measure NAME CMD...: one line "NAME wall cpu peak_kb status" into $WORK/results.
measure() {
  local name="$1"; shift
  local status=ok
  "$TIME" -f '%e %U %S %M' -o "$WORK/time" "$@" >"$WORK/out" 2>"$WORK/err" || status="exit $?"
  local wall user sys kb
  read -r wall user sys kb < <(tail -n 1 "$WORK/time")
  echo "$name $wall $(python3 -c "print(round($user + $sys, 2))") $kb $status" >> "$WORK/results"
  grep -h ' files: ' "$WORK/err" | tail -n 1 | sed "s|^|  $name: |" >&2
}

# The stateless tools' commands, as scripts /usr/bin/time can run.
printf '%s\n' "${SOURCES[@]}" > "$WORK/sources"
{
  printf 'xargs -P %q -n 1 %q -fsyntax-only' "$JOBS" "$CLANGXX"
  printf ' %q' "${FLAGS[@]}"
  printf ' < %q\n' "$WORK/sources"
} > "$WORK/clangxx.sh"
printf '%q -p %q -j %q -quiet -clang-tidy-binary %q -checks=%q -config=%q\n' \
  "$RUN_CLANG_TIDY" "$PROJ" "$JOBS" "$(command -v "$CLANG_TIDY")" \
  '-*,bugprone-unused-return-value' "$TIDY_CONFIG" > "$WORK/run-clang-tidy.sh"

stateless() { # SCENARIO
  if [ "$1" = cold ] || [ "$ALL" = 1 ]; then
    measure "$1/clang++" bash "$WORK/clangxx.sh"
    measure "$1/run-clang-tidy" bash "$WORK/run-clang-tidy.sh"
  fi
}
torch_tidy() { # SCENARIO
  measure "$1/torch-tidy" "$TORCH_TIDY" -p "$PROJ" -j "$JOBS" --cache-dir="$WORK/cache"
}

: > "$WORK/results"
stateless cold
torch_tidy cold
stateless unchanged
torch_tidy unchanged
printf '\nint edited_function() { return 1; }\n' >> "$PROJ/src/train/train3.cpp"
stateless cpp-edit
torch_tidy cpp-edit
printf '\ntorch::Tensor edited_loss(const torch::Tensor &x);\n' >> "$PROJ/include/losses.h"
stateless header
torch_tidy header

echo "bench: load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
python3 - "$WORK/results" "${#SOURCES[@]}" "$ALL" <<'PY'
import sys
rows = [l.split(None, 4) for l in open(sys.argv[1]) if l.strip()]
files, remeasured = int(sys.argv[2]), sys.argv[3] == '1'
by = {r[0]: (float(r[1]), float(r[2]), int(r[3]), r[4].strip()) for r in rows}
base = by['cold/clang++']
print('| scenario | tool | wall s | CPU s | peak MiB | wall | CPU | peak | per file |')
print('|---|---|---:|---:|---:|---:|---:|---:|---:|')
for scenario in ('cold', 'unchanged', 'cpp-edit', 'header'):
    for tool in ('clang++', 'run-clang-tidy', 'torch-tidy'):
        key = scenario + '/' + tool
        note = ''
        if key not in by:
            key, note = 'cold/' + tool, ' (as cold)'
        wall, cpu, kb, status = by[key]
        name = {'clang++': 'clang++ -fsyntax-only', 'run-clang-tidy': 'run-clang-tidy-19, one check'}.get(tool, tool)
        status = '' if status == 'ok' else ' (' + status + ')'
        print(f'| {scenario} | {name}{note}{status} | {wall:.2f} | {cpu:.2f} | {kb / 1024:.0f} | '
              f'{wall / base[0]:.2f}x | {cpu / base[1]:.2f}x | {kb / base[2]:.2f}x | '
              f'{1000 * wall / files:.0f} ms |')
PY
