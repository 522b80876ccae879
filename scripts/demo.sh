#!/usr/bin/env bash
# Runs torch-tidy on examples/, a small LibTorch project with real device bugs.
# CMake writes examples/build/compile_commands.json; torch-tidy reads it (-p).
set -euo pipefail
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
cmake -S "$top/examples" -B "$top/examples/build" -G Ninja \
      -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
echo "== torch-tidy -p examples/build"
cd "$top"
"$top/$build/tool/torch-tidy" -p examples/build --quiet || status=$?
echo "== torch-tidy exited with ${status:-0}"
