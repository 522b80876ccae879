// The headers every CUDA extension fixture (test/checks/*.cu) includes,
// precompiled once per build for clang's CUDA host-side parse: a fixture then
// parses in about 3 s instead of 18 s.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
