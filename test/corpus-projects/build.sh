#!/bin/sh
# Builds every project of test/corpus-projects with g++ against Debian's LibTorch and runs each
# entry point (every .cpp with a main()) briefly on its synthetic data, on the CPU (or a GPU when
# there is one). Outputs go under $OUT (default /tmp/torch-tidy-corpus-projects).
#   test/corpus-projects/build.sh            # every project
#   test/corpus-projects/build.sh vae yolo   # some
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/torch-tidy-corpus-projects}
CXX=${CXX:-g++}
FLAGS="-std=c++17 -O0 -I/usr/include/torch/csrc/api/include"
LIBS="-ltorch -ltorch_cpu -lc10"
mkdir -p "$OUT/pch"

# A precompiled <torch/torch.h> (about 2 minutes once, then about 8 s a file instead of 20).
PCH="$OUT/pch/torch_all.h"
[ -f "$PCH" ] || echo '#include <torch/torch.h>' > "$PCH"
if [ ! -f "$PCH.gch" ]; then
  echo "building the precompiled header"
  $CXX $FLAGS -x c++-header "$PCH" -o "$PCH.gch"
fi

if [ $# -eq 0 ]; then
  set -- $(cd "$HERE" && for d in */; do echo "${d%/}"; done)
fi

for project in "$@"; do
  src="$HERE/$project"
  obj="$OUT/$project"
  mkdir -p "$obj"
  entries=""
  library=""
  for cpp in "$src"/*.cpp; do
    o="$obj/$(basename "$cpp" .cpp).o"
    # Rebuild when the source or any header of the project is newer than the object.
    if [ ! -f "$o" ] || [ -n "$(find "$cpp" "$src" -maxdepth 1 \( -name '*.h' -o -name "$(basename "$cpp")" \) -newer "$o")" ]; then
      echo "compiling $project/$(basename "$cpp")"
      $CXX $FLAGS -Winvalid-pch -include "$PCH" -I"$src" -c "$cpp" -o "$o"
    fi
    if grep -q 'int main(' "$cpp"; then entries="$entries $o"; else library="$library $o"; fi
  done
  for e in $entries; do
    exe="${e%.o}"
    $CXX "$e" $library -o "$exe" $LIBS
  done
  # Entry points run in name order: *_train before the evaluation entry points that load its
  # checkpoint (build.sh names them so).
  for e in $(printf '%s\n' $entries | sort -t_ -k2 | awk '/_train\.o$/ {print; next} {rest = rest $0 "\n"} END {printf "%s", rest}'); do
    exe="${e%.o}"
    echo "running $project/$(basename "$exe")"
    (cd "$obj" && timeout 60 "$exe")
  done
done
echo "build.sh: all projects built and ran"
