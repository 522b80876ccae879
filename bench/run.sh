#!/usr/bin/env bash
# torch-tidy benchmark (not a test: it measures, it asserts nothing).
#
#   bench/run.sh                 # examples/src/*.cpp + test/checks/*.cpp, three tools
#   bench/run.sh --dataflow [N]  # one generated function of N statements (default 5000)
#
# Each tool runs serially, one process per file, under /usr/bin/time -f '%e %M':
#   clang++-19 -fsyntax-only                     (the parse cost every tool pays)
#   clang-tidy-19 bugprone-unused-return-value   (a stock clang-tidy check, Tensor::to only)
#   torch-tidy                                   ($TORCH_TIDY, default build/tool/torch-tidy)
# Reported: wall = sum over files, peak = max over files.
# Env: TORCH_TIDY (binary), BENCH_FILES (space-separated files instead of the default set),
#      CLANGXX (default clang++-19), CLANG_TIDY (default clang-tidy-19),
#      BENCH_REPEAT (runs per file and tool, the fastest counts; default 1).
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
TORCH_TIDY="${TORCH_TIDY:-$ROOT/build/tool/torch-tidy}"
CLANGXX="${CLANGXX:-clang++-19}"
CLANG_TIDY="${CLANG_TIDY:-clang-tidy-19}"
REPEAT="${BENCH_REPEAT:-1}"
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "bench: /usr/bin/time not found (apt-get install time)" >&2; exit 2; }

MODE=files
N=5000
if [ "${1:-}" = "--dataflow" ]; then
  MODE=dataflow
  [ -n "${2:-}" ] && N="$2"
fi

WORK="$(mktemp -d /tmp/torch-tidy-bench.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

# Compile flags: from examples' compile database when present (first entry, minus compiler,
# -o/-c and the source), else a default. Applied to every file.
DB="$ROOT/examples/build/compile_commands.json"
if [ -f "$DB" ]; then
  mapfile -t FLAGS < <(python3 - "$DB" <<'PY'
import json, shlex, sys
e = json.load(open(sys.argv[1]))[0]
args = e.get("arguments") or shlex.split(e["command"])
out, skip = [], False
for a in args[1:]:
    if skip:
        skip = False
        continue
    if a in ("-o", "-c"):
        skip = a == "-o"
        continue
    if a == e["file"] or a.endswith((".cpp", ".cc", ".cxx")):
        continue
    out.append(a)
print("\n".join(out))
PY
)
  FLAG_SRC="$DB"
else
  FLAGS=(-std=c++17 -I/usr/include/torch/csrc/api/include)
  FLAG_SRC="default"
fi

if [ "$MODE" = dataflow ]; then
  FILES=("$WORK/long_function_$N.cpp")
  python3 "$ROOT/bench/gen_long_function.py" "$N" -o "${FILES[0]}"
elif [ -n "${BENCH_FILES:-}" ]; then
  read -r -a FILES <<< "$BENCH_FILES"
else
  FILES=()
  for f in "$ROOT"/examples/src/*.cpp "$ROOT"/test/checks/*.cpp; do
    [ -f "$f" ] && FILES+=("$f")
  done
fi
[ "${#FILES[@]}" -gt 0 ] || { echo "bench: no input files" >&2; exit 2; }

echo "bench: ${#FILES[@]} file(s), mode=$MODE, flags from $FLAG_SRC" >&2

# Each tool's command; the literal word FILE is replaced per file.
TIDY_CONFIG="{CheckOptions: {bugprone-unused-return-value.CheckedFunctions: '::at::Tensor::to'}}"
TOOLS=("clang++ -fsyntax-only")
CLANGXX_CMD=("$CLANGXX" -fsyntax-only "${FLAGS[@]}" FILE)
COMMANDS=(CLANGXX_CMD)
if [ "$MODE" = files ]; then
  TOOLS+=("clang-tidy")
  CLANG_TIDY_CMD=("$CLANG_TIDY" --quiet "--checks=-*,bugprone-unused-return-value"
                  "--config=$TIDY_CONFIG" FILE -- "${FLAGS[@]}")
  COMMANDS+=(CLANG_TIDY_CMD)
fi
if [ -x "$TORCH_TIDY" ]; then
  TOOLS+=("torch-tidy")
  # --no-cache: each file parsed and analysed, as the other tools do.
  TORCH_TIDY_CMD=("$TORCH_TIDY" --no-cache FILE -- "${FLAGS[@]}")
  COMMANDS+=(TORCH_TIDY_CMD)
else
  echo "bench: $TORCH_TIDY not found: torch-tidy skipped" >&2
fi

# Per file, the tools one after the other, REPEAT rounds, so that the load of
# other processes falls on all of them alike; the fastest run of each counts
# (other processes only ever slow a run down). wall = sum over files of that,
# peak = max over files.
declare -A WALL PEAK FAILED
for t in "${!TOOLS[@]}"; do WALL[$t]=0; PEAK[$t]=0; FAILED[$t]=0; done
for f in "${FILES[@]}"; do
  declare -A BEST=()
  for r in $(seq "$REPEAT"); do
    for t in "${!TOOLS[@]}"; do
      declare -n TEMPLATE="${COMMANDS[$t]}"
      cmd=()
      for a in "${TEMPLATE[@]}"; do [ "$a" = FILE ] && cmd+=("$f") || cmd+=("$a"); done
      unset -n TEMPLATE
      "$TIME" -f '%e %M' -o "$WORK/time" "${cmd[@]}" >"$WORK/out" 2>&1 ||
        { [ "$r" = 1 ] && FAILED[$t]=$((FAILED[$t] + 1)); }
      read -r wall kb < <(tail -n 1 "$WORK/time")
      BEST[$t]=$(python3 -c "print(min(float(w) for w in '${BEST[$t]:-} $wall'.split()))")
      [ "$kb" -gt "${PEAK[$t]}" ] && PEAK[$t]=$kb
    done
  done
  for t in "${!TOOLS[@]}"; do
    WALL[$t]=$(python3 -c "print(round(${WALL[$t]} + ${BEST[$t]}, 2))")
  done
  unset BEST
done

base=${WALL[0]}
echo "| tool | files | wall s | peak MiB | ratio vs clang++ -fsyntax-only | status |"
echo "|---|---:|---:|---:|---:|---|"
for t in "${!TOOLS[@]}"; do
  status=$([ "${FAILED[$t]}" -eq 0 ] && echo ok || echo "${FAILED[$t]} file(s) exited non-zero")
  python3 -c "
import sys
t, n, w, kb, base, st = sys.argv[1:]
w, base = float(w), float(base)
ratio = f'{w / base:.2f}x' if base > 0 else 'n/a'
print(f'| {t} | {n} | {w:.2f} | {int(kb)/1024:.0f} | {ratio} | {st} |')
" "${TOOLS[$t]}" "${#FILES[@]}" "${WALL[$t]}" "${PEAK[$t]}" "$base" "$status"
done
if [ "${TOOLS[*]}" = "clang++ -fsyntax-only clang-tidy torch-tidy" ]; then
  python3 -c "import sys; a,b=map(float,sys.argv[1:]); print(f'torch-tidy / clang-tidy wall ratio: {a/b:.2f}x' if b>0 else 'n/a')" \
    "${WALL[2]}" "${WALL[1]}"
fi
