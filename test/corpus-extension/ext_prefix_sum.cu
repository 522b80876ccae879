// Exclusive prefix sum of per-segment lengths into offsets (ragged batching), written in an older extension style.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

#include <tuple>

__global__ void block_scan_kernel(const int* __restrict__ lengths, int* __restrict__ offsets, int n) {
  __shared__ int buf[1024];
  const int t = threadIdx.x;
  int carry = 0;
  for (int base = 0; base < n; base += blockDim.x) {
    buf[t] = (base + t < n) ? lengths[base + t] : 0;
    __syncthreads();
    for (int s = 1; s < blockDim.x; s <<= 1) {
      const int v = t >= s ? buf[t - s] : 0;
      __syncthreads();
      buf[t] += v;
      __syncthreads();
    }
    if (base + t < n) offsets[base + t + 1] = carry + buf[t];
    carry += buf[blockDim.x - 1];
    __syncthreads();
  }
  if (t == 0) offsets[0] = 0;
}

std::tuple<at::Tensor, int64_t> lengths_to_offsets(at::Tensor lengths) {
  AT_ASSERTM(lengths.scalar_type() == at::kInt, "lengths must be int32");
  AT_ASSERTM(lengths.is_contiguous(), "lengths must be contiguous");
  const int n = lengths.size(0);
  auto offsets = at::empty({n + 1}, lengths.options());
  const int* len_ptr = lengths.data<int>();  // BUG(extension-unchecked-device): only dtype and layout are asserted; CPU lengths (built from a Python list) hand a host pointer to the kernel
  block_scan_kernel<<<1, 1024, 0, at::cuda::getCurrentCUDAStream()>>>(len_ptr, offsets.data<int>(), n);  // BUG(extension-missing-device-guard): no guard: with lengths on cuda:1 this launches on the current device
  AT_CUDA_CHECK(cudaGetLastError());
  AT_CUDA_CHECK(cudaStreamSynchronize(0));  // BUG(extension-default-stream): waits for the legacy stream, not for the current stream the scan ran on
  const int64_t total = offsets[n].item<int>();
  return {offsets, total};
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("lengths_to_offsets", &lengths_to_offsets, "exclusive prefix sum of lengths (CUDA)");
}
