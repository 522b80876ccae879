#!/usr/bin/env bash
# The fixed-bug benchmark of the extension rules (docs/fixed-bugs.md): replays each merged fix of
# bench/fixed-bugs/fixes.json whose repository has a mirror, torch-tidy on the parent and on the fix.
#   scripts/fixed-bugs.sh [TORCH_TIDY] [replay.py options]    (default: build/tool/torch-tidy)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tidy=${1:-$root/build/tool/torch-tidy}
[ $# -gt 0 ] && shift
exec python3 "$root/bench/fixed-bugs/replay.py" "$tidy" "$@"
