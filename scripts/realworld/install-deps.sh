#!/usr/bin/env bash
# Installs, from Debian's archive, the headers the projects of scripts/realworld.sh include
# besides LibTorch: without them their files stop at a fatal "file not found" and the rules
# see a partial AST (the report then charges those files to the missing dependency).
# Not needed to build or test torch-tidy; CI does not run it. Idempotent.
set -euo pipefail

# OpenCV: nerf-libtorch, koba-jon/pytorch_cpp, LibtorchTutorials, libtorch-yolov5,
# pytorch/examples. Eigen: OpenCV's optional interop. Boost, png++: koba-jon/pytorch_cpp.
# yaml-cpp, fmt: pytorch/serve. spdlog, cppzmq: pytorch-cpp-rl. toml++: lattice-boltzmann.
# cxxopts: libtorch-yolov5 (also vendored).
packages=(
  libopencv-dev libeigen3-dev libboost-dev libpng++-dev libyaml-cpp-dev libfmt-dev
  libspdlog-dev cppzmq-dev libtomlplusplus-dev libcxxopts-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "realworld install-deps: all ${#packages[@]} packages present"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "realworld install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "realworld install-deps: done"
