// Rotary position embedding applied in place to q/k heads from a precomputed cos/sin cache (LLM serving style).
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/library.h>

template <typename scalar_t>
__global__ void rotary_kernel(scalar_t* __restrict__ qk, const int64_t* __restrict__ positions,
                              const float* __restrict__ cos_sin, int num_heads, int head_dim,
                              int64_t token_stride) {
  const int token = blockIdx.x;
  const int half = head_dim / 2;
  const int64_t pos = positions[token];
  const float* cache = cos_sin + pos * head_dim;
  for (int i = threadIdx.x; i < num_heads * half; i += blockDim.x) {
    const int h = i / half, d = i % half;
    scalar_t* v = qk + token * token_stride + h * head_dim;
    const float x1 = static_cast<float>(v[d]), x2 = static_cast<float>(v[d + half]);
    const float c = cache[d], s = cache[d + half];
    v[d] = static_cast<scalar_t>(x1 * c - x2 * s);
    v[d + half] = static_cast<scalar_t>(x2 * c + x1 * s);
  }
}

void rotary_embedding_(at::Tensor& qk, const at::Tensor& positions, const at::Tensor& cos_sin_cache) {
  TORCH_CHECK(qk.is_cuda() && positions.is_cuda() && cos_sin_cache.is_cuda(), "rotary: CUDA tensors only");
  TORCH_CHECK(positions.device() == qk.device(), "positions and qk must be on the same device");
  TORCH_CHECK(cos_sin_cache.scalar_type() == at::kFloat && positions.scalar_type() == at::kLong, "bad dtypes");
  TORCH_CHECK(qk.dim() == 3 && qk.stride(2) == 1, "qk must be [tokens, heads, head_dim] with unit last stride");
  const at::cuda::OptionalCUDAGuard device_guard(device_of(qk));
  const int tokens = qk.size(0), num_heads = qk.size(1), head_dim = qk.size(2);
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, qk.scalar_type(), "rotary_embedding_", [&] {
    rotary_kernel<scalar_t><<<tokens, 256, 0, at::cuda::getCurrentCUDAStream()>>>(  // BUG(extension-mixed-devices): positions is checked against qk's device but the cos/sin cache is not; a cache built on cuda:0 while the shard runs on cuda:1 is read through a foreign pointer
        qk.data_ptr<scalar_t>(), positions.data_ptr<int64_t>(), cos_sin_cache.data_ptr<float>(),
        num_heads, head_dim, qk.stride(0));
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

TORCH_LIBRARY(rope_ops, m) {
  m.def("rotary_embedding_(Tensor(a!) qk, Tensor positions, Tensor cos_sin_cache) -> ()");
}

TORCH_LIBRARY_IMPL(rope_ops, CUDA, m) {
  m.impl("rotary_embedding_", &rotary_embedding_);
}
