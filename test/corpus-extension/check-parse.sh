#!/usr/bin/env bash
# Parses every file of the extension corpus with clang 19: .cu through the CUDA front end (host
# side), .cpp as C++, one file at a time; exits 1 if any file does not parse.
#   test/corpus-extension/check-parse.sh [file...]        (default: every .cu/.cpp here)
# Needs the CUDA toolkit (CUDA_HOME, else /usr/local/cuda), LibTorch at /usr/include/torch, and for
# <torch/extension.h> Python.h and pybind11 (python3-dev, pybind11-dev: scripts/install-deps.sh
# --realworld). The flags are compdb.py's: CUDA 13 removed two headers that clang 19's CUDA wrapper
# includes, and Debian's CPU-only LibTorch lacks c10/cuda/impl/cuda_cmake_macros.h; empty stand-ins
# are made in a temporary directory and searched last (-idirafter), so real headers win.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shims=$(mktemp -d)
trap 'rm -rf "$shims"' EXIT
if [ $# -gt 0 ]; then files=("$@"); else files=("$here"/*.cu "$here"/*.cpp); fi
python3 "$here/compdb.py" --check --clang "${CLANG:-clang++-19}" --shims "$shims" "${files[@]}"
