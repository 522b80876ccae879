// Row softmax with a small-input CPU shortcut (fused-ops repository style).
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/extension.h>

template <typename scalar_t>
__global__ void row_softmax_kernel(const scalar_t* __restrict__ x, scalar_t* __restrict__ y, int cols) {
  extern __shared__ float buf[];
  const int row = blockIdx.x;
  const scalar_t* xr = x + (int64_t)row * cols;
  float m = -1e30f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, static_cast<float>(xr[c]));
  buf[threadIdx.x] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) buf[threadIdx.x] = fmaxf(buf[threadIdx.x], buf[threadIdx.x + s]);
    __syncthreads();
  }
  m = buf[0];
  __syncthreads();
  float sum = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) sum += expf(static_cast<float>(xr[c]) - m);
  buf[threadIdx.x] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  sum = buf[0];
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    y[(int64_t)row * cols + c] = static_cast<scalar_t>(expf(static_cast<float>(xr[c]) - m) / sum);
}

torch::Tensor row_softmax(torch::Tensor x) {
  TORCH_CHECK(x.dim() == 2, "x must be 2-D");
  if (x.device().is_cpu() && x.numel() < (1 << 16)) {
    return torch::softmax(x, /*dim=*/1);  // small CPU inputs: not worth a copy
  }
  const at::cuda::CUDAGuard device_guard(x.get_device());
  auto xc = x.contiguous();
  auto y = torch::empty_like(xc);
  const int rows = xc.size(0), cols = xc.size(1);
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(xc.scalar_type(), "row_softmax", [&] {
    const scalar_t* x_ptr = xc.data_ptr<scalar_t>();  // BUG(extension-unchecked-device): the shortcut above only catches small CPU inputs; a large CPU x falls through to the CUDA kernel with a host pointer
    row_softmax_kernel<scalar_t><<<rows, 256, 256 * sizeof(float), at::cuda::getCurrentCUDAStream()>>>(
        x_ptr, y.data_ptr<scalar_t>(), cols);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return y;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("row_softmax", &row_softmax, "row softmax (CUDA, small CPU inputs on the CPU)");
}
