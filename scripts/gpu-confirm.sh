#!/usr/bin/env bash
# gpu-confirm.sh DIR [OUTDIR]
#
# Replays every replay plan (*.json) in DIR on cuda:0 and writes
# verdicts.json and inventory.json to OUTDIR (default: $OUT). Meant for a GPU
# machine with CUDA, PyTorch 2.x, CMake and ninja but no LLVM: it builds only
# torch-tidy-probe, against the LibTorch inside the installed PyTorch.
# The last line printed is the summary:
#   gpu-confirm: N plans: C confirmed, R not-reproduced, I inconclusive on cuda:0 (NVIDIA H200)
# Exit status: the probe's (0, or 2 when some plans were invalid); 1 when the
# machine lacks something, with a one-line reason.
set -euo pipefail

fail() { echo "gpu-confirm: error: $*" >&2; exit 1; }

[ $# -ge 1 ] && [ $# -le 2 ] || fail "usage: gpu-confirm.sh DIR [OUTDIR]"
[ -d "$1" ] || fail "$1: not a directory of plans"
plans=$(cd "$1" && pwd)
outdir=${2:-${OUT:-}}
[ -n "$outdir" ] || fail "no OUTDIR given and \$OUT is not set"
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${TORCH_TIDY_GPU_BUILD_DIR:-$root/build/gpu-probe}
jobs=${TORCH_TIDY_GPU_JOBS:-16}

for tool in cmake ninja python3; do
  command -v "$tool" >/dev/null || fail "$tool not found"
done
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export CUDACXX=/usr/local/cuda/bin/nvcc
fi

torch_prefix=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>/dev/null) ||
  fail "python3 cannot import torch (PyTorch provides the LibTorch to build against)"

# The top level needs nlohmann_json's CMake package. Without one, a header
# found elsewhere (a system include dir, or one PyTorch ships) is described to
# CMake by a two-file package generated into the build dir.
nlohmann_args=()
nlohmann_package_found() {
  local dir
  for dir in /usr/share/cmake /usr/lib/cmake /usr/lib/x86_64-linux-gnu/cmake \
             /usr/local/share/cmake /usr/local/lib/cmake /usr/share \
             "$torch_prefix" "$torch_prefix/.."; do
    compgen -G "$dir/nlohmann_json*/nlohmann_jsonConfig.cmake" >/dev/null && return 0
  done
  return 1
}
if ! nlohmann_package_found; then
  header=""
  for inc in /usr/include /usr/local/include "$torch_prefix/../../include"; do
    if [ -f "$inc/nlohmann/json.hpp" ]; then header="$inc/nlohmann/json.hpp"; break; fi
  done
  [ -n "$header" ] || fail "nlohmann/json.hpp not found (install nlohmann-json3-dev, or pip install a PyTorch that ships it)"
  include_dir=$(cd "$(dirname "$header")/.." && pwd)
  major=$(sed -n 's/^#define NLOHMANN_JSON_VERSION_MAJOR \([0-9]*\).*/\1/p' "$header")
  minor=$(sed -n 's/^#define NLOHMANN_JSON_VERSION_MINOR \([0-9]*\).*/\1/p' "$header")
  [ -n "$major" ] || fail "$header: no NLOHMANN_JSON_VERSION_MAJOR"
  shim="$build/nlohmann-package"
  mkdir -p "$shim"
  cat >"$shim/nlohmann_jsonConfig.cmake" <<CMAKE
if(NOT TARGET nlohmann_json::nlohmann_json)
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
  set_target_properties(nlohmann_json::nlohmann_json PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "$include_dir")
endif()
CMAKE
  cat >"$shim/nlohmann_jsonConfigVersion.cmake" <<CMAKE
set(PACKAGE_VERSION "$major.$minor")
if(PACKAGE_FIND_VERSION_MAJOR AND NOT PACKAGE_FIND_VERSION_MAJOR EQUAL $major)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
else()
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
endif()
CMAKE
  echo "gpu-confirm: using nlohmann/json.hpp from $include_dir (no CMake package installed)"
  nlohmann_args=(-Dnlohmann_json_DIR="$shim")
fi

echo "gpu-confirm: configuring against $torch_prefix"
# TorchConfig sets _GLIBCXX_USE_CXX11_ABI to match the wheel; never override it.
TORCH_CUDA_ARCH_LIST=${TORCH_CUDA_ARCH_LIST:-9.0} \
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DTORCH_TIDY_WITH_ANALYZER=OFF -DTORCH_TIDY_WITH_PROBE=ON -DBUILD_TESTING=OFF \
  -DCMAKE_PREFIX_PATH="$torch_prefix" "${nlohmann_args[@]}" >"$outdir/configure.log" 2>&1 ||
  { tail -30 "$outdir/configure.log" >&2; fail "configure failed (full log: $outdir/configure.log)"; }
cmake --build "$build" --target torch-tidy-probe -j "$jobs" >"$outdir/build.log" 2>&1 ||
  { tail -30 "$outdir/build.log" >&2; fail "build failed (full log: $outdir/build.log)"; }
probe="$build/cuda_probe/torch-tidy-probe"

"$probe" --inventory --output="$outdir/inventory.json"
status=0
"$probe" --backend=cuda --jobs=8 --timeout=60 --output="$outdir/verdicts.json" "$plans" || status=$?
[ -f "$outdir/verdicts.json" ] || fail "the probe wrote no verdicts (exit status $status)"

python3 - "$outdir/verdicts.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
s = report["summary"]
invalid = f", {s['invalid']} invalid" if s["invalid"] else ""
backend, _, name = report["device"].partition(" ")
where = f"{backend} ({name})" if name else backend
print(f"gpu-confirm: {s['plans']} plans: {s['confirmed']} confirmed, "
      f"{s['not-reproduced']} not-reproduced, {s['inconclusive']} inconclusive"
      f"{invalid} on {where}")
PY
exit "$status"
