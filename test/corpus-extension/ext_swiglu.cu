// SwiGLU activation on a fused [.., 2H] projection (LLM MLP), registered with TORCH_LIBRARY for torch.compile.
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/library.h>

template <typename scalar_t>
__global__ void swiglu_kernel(const scalar_t* __restrict__ x, scalar_t* __restrict__ y, int64_t rows, int64_t hidden) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i >= rows * hidden) return;
  const int64_t r = i / hidden, c = i % hidden;
  const float gate = static_cast<float>(x[r * 2 * hidden + c]);
  const float up = static_cast<float>(x[r * 2 * hidden + hidden + c]);
  y[i] = static_cast<scalar_t>(gate / (1.f + expf(-gate)) * up);
}

at::Tensor swiglu(const at::Tensor& x) {
  TORCH_CHECK(x.is_cuda(), "swiglu: x must be a CUDA tensor");
  TORCH_CHECK(x.size(-1) % 2 == 0, "swiglu: last dimension must be even");
  const c10::cuda::OptionalCUDAGuard device_guard(x.device());
  auto xc = x.contiguous();
  const int64_t hidden = x.size(-1) / 2;
  const int64_t rows = x.numel() / (2 * hidden);
  auto out_sizes = x.sizes().vec();
  out_sizes.back() = hidden;
  auto y = at::empty(out_sizes, x.options());
  if (y.numel() == 0) return y;
  const c10::cuda::CUDAStream stream = c10::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, x.scalar_type(), "swiglu", [&] {
    swiglu_kernel<scalar_t><<<(rows * hidden + 255) / 256, 256, 0, stream.stream()>>>(
        xc.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), rows, hidden);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

TORCH_LIBRARY(mlp_ops, m) {
  m.def("swiglu(Tensor x) -> Tensor");
}

TORCH_LIBRARY_IMPL(mlp_ops, CUDA, m) {
  m.impl("swiglu", &swiglu);
}
