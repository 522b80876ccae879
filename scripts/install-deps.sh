#!/usr/bin/env bash
# Installs what torch-tidy needs to build and test, from Debian's archive.
# Idempotent: installs only packages that are missing; does nothing when all are present.
set -euo pipefail

# libclang-rt-19-dev: the sanitizer and libFuzzer runtimes (make sanitize, fuzz).
# git, meson, bear, pre-commit: the e2e tests of the CI gate (--diff, the compile
# databases of Meson and Bear, the pre-commit hook).
packages=(
  clang-19 clang-tidy-19 libclang-19-dev libclang-cpp19-dev llvm-19-dev llvm-19-tools
  libclang-rt-19-dev libtorch-dev nlohmann-json3-dev libgtest-dev libgmock-dev
  cmake ninja-build python3 python3-yaml make git meson bear pre-commit
)

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
