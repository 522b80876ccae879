# Sanitizer and fuzzer builds (make sanitize, make fuzz; see README.md,
# "Fuzzing and sanitizers").
#
# TORCH_TIDY_SANITIZE: every target of the project with ASan and UBSan. UB is
# not recoverable, so it fails the test that hits it. LLVM's and LibTorch's
# libraries stay uninstrumented; test/sanitize/ holds the few suppressions
# that this needs.
# TORCH_TIDY_FUZZ: the same instrumentation plus libFuzzer's coverage, and the
# libFuzzer targets of test/fuzz/ (target `fuzzers`).
option(TORCH_TIDY_SANITIZE "Build with AddressSanitizer and UBSan" OFF)
option(TORCH_TIDY_FUZZ "Build the libFuzzer targets of test/fuzz (clang++-19)" OFF)

set(TORCH_TIDY_SANITIZED OFF)
if(TORCH_TIDY_SANITIZE OR TORCH_TIDY_FUZZ)
  set(TORCH_TIDY_SANITIZED ON)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "TORCH_TIDY_SANITIZE and TORCH_TIDY_FUZZ need "
                        "CMAKE_CXX_COMPILER=clang++-19")
  endif()
  set(_torch_tidy_sanitizers
      -fsanitize=address,undefined -fno-sanitize-recover=undefined)
  # C++ only: nvcc (cuda_probe/Inventory.cu) knows none of these flags.
  add_compile_options(
    "$<$<COMPILE_LANGUAGE:CXX>:${_torch_tidy_sanitizers};-fno-omit-frame-pointer;-gline-tables-only>")
  add_link_options(${_torch_tidy_sanitizers})
  if(TORCH_TIDY_FUZZ)
    # Coverage for libFuzzer everywhere; only the fuzzers link its main().
    add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:-fsanitize=fuzzer-no-link>")
  endif()
endif()
