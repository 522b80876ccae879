#!/usr/bin/env bash
# Runs torch-tidy over pinned public LibTorch projects (scripts/realworld/projects.txt) and
# reports crashes, compiler errors by cause, findings per rule and per KLoC, wall time.
#
#   scripts/realworld.sh [--src DIR] [--out DIR] [--jobs N] [--projects a,b] [--fix-check]
#                        [--std N|auto] [--resume] [--dry-run]
#
#   --src DIR        where the projects' git directories are: DIR/owner+name/repo, a bare
#                    git directory or a clone (default: $REALWORLD_SRC, else /work/.mirror).
#                    A project missing there is cloned from GitHub when the network allows,
#                    else reported and skipped.
#   --out DIR        results (default: build/realworld): report.md, one KEY.json of findings
#                    per project (KEY = owner+name), src/ (the trees), db/ (the compile
#                    databases), errors/ (files that did not compile, by cause), logs/, fix/
#   --jobs N         torch-tidy -j N (default: the number of cores)
#   --projects a,b   only these projects (owner/name, name or owner+name)
#   --fix-check      also run torch-tidy --fix-errors in a copy of each project, on the
#                    files whose findings have fixes (or include a header that has one), and
#                    check that every changed file that compiled before still compiles
#                    (clang++-19 -fsyntax-only)
#   --std N          -std=c++N for every file (default 17); 'auto': the standard each
#                    project's CMake asks for, when later than 17 (LibTorch 1.13's headers
#                    do not compile as C++20 here)
#   --resume         go on with an interrupted run in the same --out: the projects it
#                    finished (with --fix-check: fix check included) are kept, not run again
#   --dry-run        only write the trees and compile databases, and print the file counts
#
# No project's build system runs: scripts/realworld/compdb.py writes each compile database
# (every .cpp/.cc/.cxx, -I every directory with headers, LibTorch/OpenCV/Eigen from /usr,
# the project's global CMake definitions).
# Compiler errors torch-tidy reports in headers outside the project (LibTorch, libstdc++)
# are charged by compiling the files concerned (scripts/realworld/classify.py).
# torch-tidy and clang run under 'nice -n 19'. Env: TORCH_TIDY (default build/tool/torch-tidy),
# CLANGXX (default clang++-19), REALWORLD_PROJECTS (another project list).
# Exit status: 0; 1 when a crash was seen (a torch-tidy-crash finding, or a torch-tidy run
# that died: exit status >= 128 or no output); 2 for bad usage, or a torch-tidy that could
# not be executed (after waiting 3 minutes for a rebuild).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
helpers=$here/realworld

usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
  exit "${1:-2}"
}
die() { echo "realworld: $*" >&2; exit 2; }

src=${REALWORLD_SRC:-/work/.mirror}
out=$top/build/realworld
jobs=$(nproc)
only=""
fix_check=0
dry_run=0
resume=0
std=17
while (($#)); do
  case $1 in
    --src) src=${2:?--src needs a directory}; shift 2 ;;
    --src=*) src=${1#*=}; shift ;;
    --out) out=${2:?--out needs a directory}; shift 2 ;;
    --out=*) out=${1#*=}; shift ;;
    --jobs | -j) jobs=${2:?--jobs needs a number}; shift 2 ;;
    --jobs=*) jobs=${1#*=}; shift ;;
    --projects) only=${2:?--projects needs a list}; shift 2 ;;
    --projects=*) only=${1#*=}; shift ;;
    --fix-check) fix_check=1; shift ;;
    --dry-run) dry_run=1; shift ;;
    --resume) resume=1; shift ;;
    --std) std=${2:?--std needs 17, 20, 23 or auto}; shift 2 ;;
    --std=*) std=${1#*=}; shift ;;
    -h | --help) usage 0 ;;
    *) echo "realworld: unknown argument '$1'" >&2; usage 2 ;;
  esac
done
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "--jobs wants a positive number, not '$jobs'"
std=${std#c++}
[[ $std =~ ^(17|20|23|26|auto)$ ]] || die "--std wants 17, 20, 23, 26 or auto, not '$std'"
export REALWORLD_STD=$std
tidy=${TORCH_TIDY:-$top/build/tool/torch-tidy}
if ((!dry_run)); then
  [[ -x $tidy ]] || die "no torch-tidy at '$tidy' (build it, or set TORCH_TIDY)"
  tidy=$(cd "$(dirname "$tidy")" && pwd)/$(basename "$tidy")
fi
export CLANGXX=${CLANGXX:-clang++-19}
command -v "$CLANGXX" >/dev/null || die "no $CLANGXX (set CLANGXX)"
projects=${REALWORLD_PROJECTS:-$helpers/projects.txt}
[[ -f $projects ]] || die "no project list '$projects'"
mkdir -p "$out"
out=$(cd "$out" && pwd)
mkdir -p "$out/src" "$out/db" "$out/errors" "$out/logs" "$out/fix" "$out/clones"
# The nearest .torch-tidy above a project's files is this one: a configuration that happens
# to sit above --out cannot change the rules.
for d in "$out/src" "$out/fix"; do
  printf "Checks: '-*,device-*'\n" >"$d/.torch-tidy"
done
runs=$out/runs.tsv
info=$out/run-info.txt
if ((dry_run)); then
  runs=$(mktemp)      # a dry run leaves the results of a real one alone
  trap 'rm -f "$runs"' EXIT
elif ((resume)) && [[ -s $info ]]; then
  [[ -f $runs ]] || : >"$runs"
  times=$(sed -n 's/^Resumed \([0-9]*\) times.*/\1/p' "$info")
  sed -i '/^Resumed /d' "$info"
  echo "Resumed $((${times:-0} + 1)) times (--resume), last $(date -u '+%Y-%m-%d %H:%M UTC')." \
    >>"$info"
else
  : >"$runs"
  {
    echo "Run of $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) cores, torch-tidy -j $jobs, -std: $std."
    echo "torch-tidy: $tidy ($("$tidy" --version 2>&1 | head -n 1 || true))."
    echo "Sources: $src; projects: $projects."
  } >"$info"
fi

# wanted NAME: is this project selected by --projects?
wanted() {
  [[ -z $only ]] && return 0
  local want
  IFS=, read -ra want <<<"$only"
  for w in "${want[@]}"; do
    [[ $w == "$1" || $w == "${1#*/}" || $w == "${1/\//+}" ]] && return 0
  done
  return 1
}

# git_dir NAME COMMIT: prints a git directory that has COMMIT: the --src one, else a clone.
git_dir() {
  local name=$1 commit=$2 key=${1/\//+} dir
  for dir in "$src/$key/repo/.git" "$src/$key/repo" "$src/$key.git" "$src/$key"; do
    if [[ -d $dir ]] && git --git-dir="$dir" cat-file -e "$commit^{commit}" 2>/dev/null; then
      echo "$dir"
      return 0
    fi
  done
  dir=$out/clones/$key.git
  if [[ ! -d $dir ]] || ! git --git-dir="$dir" cat-file -e "$commit^{commit}" 2>/dev/null; then
    rm -rf "$dir"
    git init -q --bare "$dir"
    local url=https://github.com/$name
    export GIT_TERMINAL_PROMPT=0
    # Is the network there at all? Then one commit if the server allows it (GitHub does),
    # else the whole history.
    if timeout 30 git ls-remote "$url" HEAD >/dev/null 2>&1; then
      timeout 600 git --git-dir="$dir" fetch -q --depth 1 "$url" "$commit" 2>/dev/null ||
        timeout 1800 git --git-dir="$dir" fetch -q "$url" '+refs/heads/*:refs/heads/*' \
          2>/dev/null || true
    fi
    if ! git --git-dir="$dir" cat-file -e "$commit^{commit}" 2>/dev/null; then
      rm -rf "$dir"
      return 1
    fi
  fi
  echo "$dir"
}

# extract_tree GITDIR COMMIT DEST: the files of COMMIT in DEST.
extract_tree() {
  rm -rf "$3"
  mkdir -p "$3"
  if ! git --git-dir="$1" archive "$2" 2>/dev/null | tar -x -C "$3" 2>/dev/null; then
    # A snapshot may lack its largest blobs; git archive stops at the first one.
    rm -rf "$3"
    mkdir -p "$3"
    echo "   git archive failed; extracting blob by blob:" \
      "$(python3 "$helpers/extract.py" "$1" "$2" "$3")"
  fi
}

# run_tidy LOG OUTPUT DBDIR [ARGS...]: torch-tidy on a compile database; sets rc.
# A binary that cannot be executed (126, 127: being rebuilt, mid-link) is waited for.
run_tidy() {
  local log=$1 output=$2 db=$3 tries=6
  shift 3
  while ((tries--)); do
    rm -f "$output"
    rc=0
    (cd "$db" && nice -n 19 "$tidy" -p "$db" --format=json --output="$output" -j "$jobs" "$@") \
      >"$log" 2>&1 || rc=$?
    ((rc == 126 || rc == 127)) || return 0
    echo "   torch-tidy cannot be executed (exit $rc, being rebuilt?); retrying in 30 s" >&2
    sleep 30
  done
  unrunnable=1
}

# since START: seconds from $EPOCHREALTIME START to now.
since() {
  python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" \
    "$1" "$EPOCHREALTIME"
}

# record KEY NAME COMMIT STATUS EXIT WALL NOTE: the project's line in runs.tsv (replacing an
# earlier one).
record() {
  forget "$1"
  local IFS=$'\t'
  echo "$*" >>"$runs"
}

# forget KEY: drops the project's line from runs.tsv.
forget() {
  awk -F '\t' -v key="$1" '$1 != key' "$runs" >"$runs.new" && mv "$runs.new" "$runs"
}

# finished KEY COMMIT: did an earlier run in this --out finish the project (with --fix-check,
# its fix check too)?
finished() {
  awk -F '\t' -v key="$1" -v commit="$2" '$1 == key && $3 == commit && $4 == "ok" { found = 1 }
    END { exit !found }' "$runs" &&
    [[ -s $out/$1.json && -f $out/db/$1/files.json ]] &&
    { ((!fix_check)) || [[ -f $out/fix/$1.result.json ]]; }
}

selected=0
unrunnable=0
while read -r name commit rest <&3; do
  [[ -z $name || $name == \#* ]] && continue
  wanted "$name" || continue
  selected=$((selected + 1))
  key=${name/\//+}
  rest=${rest%%#*}
  read -ra subdirs <<<"$rest"
  echo "== $name ${commit:0:12}${subdirs[*]:+ (${subdirs[*]})}"
  if ((resume && !dry_run)) && finished "$key" "$commit"; then
    echo "   finished by an earlier run: kept (--resume)"
    continue
  fi
  # Nothing of an earlier run counts.
  forget "$key"
  rm -rf "$out/$key.json" "$out/errors/$key.json" "$out/fix/$key.result.json"
  if ! gitdir=$(git_dir "$name" "$commit"); then
    echo "   missing: no $src/$key/repo with commit $commit, and no clone; skipped"
    record "$key" "$name" "$commit" missing "" 0 "not in $src and not cloned: skipped"
    continue
  fi
  extract_tree "$gitdir" "$commit" "$out/src/$key"
  rm -rf "$out/db/$key"
  if ! made=$(python3 "$helpers/compdb.py" "$out/src/$key" "$out/db/$key" "${subdirs[@]}"); then
    record "$key" "$name" "$commit" nofiles "" 0 "compdb.py failed: skipped"
    continue
  fi
  echo "   $made"
  if ! grep -q '"file"' "$out/db/$key/compile_commands.json"; then
    record "$key" "$name" "$commit" nofiles "" 0 "no C++ files in ${subdirs[*]:-the tree}"
    continue
  fi
  ((dry_run)) && continue

  start=$EPOCHREALTIME
  run_tidy "$out/logs/$key.log" "$out/$key.json" "$out/db/$key"
  wall=$(since "$start")
  status=ok note=""
  if ((rc == 126 || rc == 127)); then
    status=norun note="torch-tidy could not be executed: $(tail -n 1 "$out/logs/$key.log")"
  elif ((rc >= 128)) || [[ ! -s $out/$key.json ]]; then
    status=crashed note="no output"
    ((rc >= 128)) && note="signal $((rc - 128))"
  fi
  echo "   torch-tidy: exit $rc, ${wall}s${note:+, CRASHED ($note)}"
  record "$key" "$name" "$commit" "$status" "$rc" "$wall" "$note"
  [[ $status == norun ]] && continue
  python3 "$helpers/classify.py" "$out" "$key" ||
    echo "   classify.py failed: this project's compiler errors are not charged to files"

  if ((fix_check)); then
    scratch=$out/fix/$key
    rm -rf "$scratch" "$scratch.db" "$scratch.json"
    cp -a "$out/src/$key" "$scratch"
    python3 "$helpers/compdb.py" "$scratch" "$scratch.db" "${subdirs[@]}" >/dev/null
    # Only the files whose analysis gives a fix are analysed again.
    echo "   fix check: $(python3 "$helpers/fixcheck.py" --select "$out/db/$key/files.json" \
      "$out/$key.json" "$scratch.db")"
    rc=0
    start=$EPOCHREALTIME
    if grep -q '"file"' "$scratch.db/compile_commands.json"; then
      # --fix-errors: with --fix alone, one file with compiler errors (there is one in most
      # projects) stops every fix; a file that did not compile before is not held against
      # the fix below.
      run_tidy "$out/logs/$key.fix.log" "$scratch.json" "$scratch.db" --fix-errors
      echo "   torch-tidy --fix-errors: exit $rc"
    else
      echo '[]' >"$scratch.json"
    fi
    python3 "$helpers/fixcheck.py" "$out/db/$key/files.json" \
      "$scratch.db/files.json" "$scratch.json" "$rc" "$scratch.result.json" \
      "$out/$key.json" || echo "   fixcheck.py failed: no fix check for this project"
    echo "   fix check: $(since "$start")s"
  fi
done 3<"$projects"
((selected)) || die "no project matches --projects '$only'"
((dry_run)) && exit 0

status=0
python3 "$helpers/report.py" "$out" >"$out/report.md" || status=$?
echo
cat "$out/report.md"
echo
echo "report: $out/report.md"
((unrunnable)) && die "torch-tidy could not be executed for some projects (see ## Notes)"
case $status in
  0) exit 0 ;;
  3) echo "realworld: torch-tidy crashed (see ## Crashes)" >&2; exit 1 ;;
  *) die "report.py failed ($status)" ;;
esac
