// LayerNorm forward with saved mean / rstd (apex-style fused kernel), statistics in float for half inputs.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

#include <vector>

#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), #x " must be a CUDA tensor")
#define CHECK_CONTIGUOUS(x) TORCH_CHECK(x.is_contiguous(), #x " must be contiguous")
#define CHECK_INPUT(x) \
  CHECK_CUDA(x);       \
  CHECK_CONTIGUOUS(x)

template <typename scalar_t>
__global__ void layer_norm_fwd_kernel(const scalar_t* __restrict__ x, const scalar_t* __restrict__ gamma,
                                      const scalar_t* __restrict__ beta, scalar_t* __restrict__ y,
                                      float* __restrict__ mean, float* __restrict__ rstd, int cols, float eps) {
  __shared__ float s_sum[256], s_sq[256];
  const int row = blockIdx.x;
  const scalar_t* xr = x + (int64_t)row * cols;
  float sum = 0.f, sq = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    const float v = static_cast<float>(xr[c]);
    sum += v;
    sq += v * v;
  }
  s_sum[threadIdx.x] = sum;
  s_sq[threadIdx.x] = sq;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) { s_sum[threadIdx.x] += s_sum[threadIdx.x + s]; s_sq[threadIdx.x] += s_sq[threadIdx.x + s]; }
    __syncthreads();
  }
  const float mu = s_sum[0] / cols;
  const float r = rsqrtf(fmaxf(s_sq[0] / cols - mu * mu, 0.f) + eps);
  if (threadIdx.x == 0) { mean[row] = mu; rstd[row] = r; }
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    const float v = (static_cast<float>(xr[c]) - mu) * r;
    y[(int64_t)row * cols + c] = static_cast<scalar_t>(v * static_cast<float>(gamma[c]) + static_cast<float>(beta[c]));
  }
}

std::vector<torch::Tensor> layer_norm_forward(torch::Tensor x, torch::Tensor gamma, torch::Tensor beta, double eps) {
  CHECK_INPUT(x);
  CHECK_INPUT(gamma);
  CHECK_INPUT(beta);
  TORCH_CHECK(gamma.device() == x.device() && beta.device() == x.device(), "x, gamma and beta must share a device");
  TORCH_CHECK(gamma.numel() == x.size(-1) && beta.numel() == x.size(-1), "gamma/beta must match the last dimension");
  const at::cuda::OptionalCUDAGuard device_guard(device_of(x));
  const int cols = x.size(-1);
  const int rows = x.numel() / cols;
  auto y = torch::empty_like(x);
  auto stats_options = x.options().dtype(torch::kFloat32);
  auto mean = torch::empty({rows}, stats_options);
  auto rstd = torch::empty({rows}, stats_options);
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, x.scalar_type(), "layer_norm_forward", [&] {
    layer_norm_fwd_kernel<scalar_t><<<rows, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        x.data_ptr<scalar_t>(), gamma.data_ptr<scalar_t>(), beta.data_ptr<scalar_t>(),
        y.data_ptr<scalar_t>(), mean.data_ptr<float>(), rstd.data_ptr<float>(), cols, static_cast<float>(eps));
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return {y, mean, rstd};
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("forward", &layer_norm_forward, "LayerNorm forward (CUDA)");
}
