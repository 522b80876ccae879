#!/usr/bin/env bash
# Installs what torch-tidy needs to build and test, from Debian's archive.
# Idempotent: installs only packages that are missing; does nothing when all are present.
#   scripts/install-deps.sh [--realworld]
# --realworld: also the headers the projects of scripts/realworld.sh include besides LibTorch
# (not needed to build or test torch-tidy; CI does not install them). Without them most of
# those files stop at a fatal "file not found", and the rules see a partial AST.
set -euo pipefail

# libclang-rt-19-dev: the sanitizer and libFuzzer runtimes (make sanitize, fuzz).
# git, meson, bear, pre-commit: the e2e tests of the CI gate (--diff, the compile
# databases of Meson and Bear, the pre-commit hook). neovim: the language server's
# e2e test, a real editor (test/lsp/neovim_test.py). ccache: every build directory
# compiles through it (cmake/CompilerCache.cmake), so a second build reuses objects.
# dpkg-dev: make package (CPack's dpkg-shlibdeps finds the package's dependencies).
packages=(
  clang-19 clang-tidy-19 libclang-19-dev libclang-cpp19-dev llvm-19-dev llvm-19-tools
  libclang-rt-19-dev libtorch-dev nlohmann-json3-dev libgtest-dev libgmock-dev
  cmake ninja-build python3 python3-yaml make git meson bear pre-commit neovim ccache
  dpkg-dev pybind11-dev
)
# OpenCV: nerf-libtorch, koba-jon/pytorch_cpp, LibtorchTutorials, libtorch-yolov5,
# pytorch/examples. Eigen: OpenCV's optional interop. Boost, png++, OpenMP (clang's omp.h):
# koba-jon/pytorch_cpp. yaml-cpp, fmt: pytorch/serve. spdlog, cppzmq, msgpack: pytorch-cpp-rl.
# toml++: lattice-boltzmann. cxxopts: libtorch-yolov5 (also vendored). RE2, sentencepiece,
# double-conversion, utf8proc, pybind11 (and Python.h): pytorch/text; pybind11 is installed
# always: <torch/extension.h>, in the .cu fixtures' precompiled header, includes it.
# glm: gsplat in the fixed-bug benchmark (bench/fixed-bugs/, a git submodule there).
realworld_packages=(
  libopencv-dev libeigen3-dev libboost-dev libpng++-dev libomp-19-dev libyaml-cpp-dev
  libfmt-dev libspdlog-dev cppzmq-dev libmsgpack-cxx-dev libtomlplusplus-dev libcxxopts-dev
  libre2-dev libsentencepiece-dev libdouble-conversion-dev libutf8proc-dev pybind11-dev
  python3-dev libglm-dev
)
case ${1:-} in
  "") ;;
  --realworld) packages+=("${realworld_packages[@]}") ;;
  *) echo "install-deps: unknown argument '$1' (only --realworld)" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
