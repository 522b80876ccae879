# Unity builds: CMake compiles the sources of each target in batches of eight,
# one file that includes them all, so the LLVM, clang and nlohmann headers
# that every source includes are parsed once a batch instead of once a file
# (docs/testing.md has the measurement). A file-scope name (a static function,
# a constant in an anonymous namespace) must therefore be unique within its
# target. -DCMAKE_UNITY_BUILD=OFF compiles file by file, which rebuilds less
# after an edit of one source.
if(NOT DEFINED CMAKE_UNITY_BUILD)
  set(CMAKE_UNITY_BUILD ON CACHE BOOL "Compile each target's sources in batches")
endif()
