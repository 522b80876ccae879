// Weighted bincount of class ids for class-balanced losses (a single-op repository): one atomic per element.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void weighted_bincount_kernel(const int64_t* __restrict__ ids, const float* __restrict__ w,
                                         int64_t n, int64_t nbins, float* __restrict__ counts) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)blockDim.x * gridDim.x) {
    const int64_t b = ids[i];
    if (b >= 0 && b < nbins) atomicAdd(counts + b, w[i]);
  }
}

torch::Tensor weighted_bincount(torch::Tensor ids, torch::Tensor weights, int64_t nbins) {
  TORCH_CHECK(ids.is_cuda(), "ids must be a CUDA tensor");
  TORCH_CHECK(weights.is_cuda(), "weights must be a CUDA tensor");
  TORCH_CHECK(ids.device() == weights.device(), "ids and weights must be on the same device");
  TORCH_CHECK(ids.numel() == weights.numel(), "ids and weights differ in size");
  auto ids_c = ids.contiguous();
  auto w_c = weights.to(torch::kFloat32).contiguous();
  auto counts = torch::zeros({nbins}, torch::kFloat32);  // BUG(extension-output-device): dtype only: the counts live on the CPU while the kernel accumulates into them with atomics
  const int64_t n = ids.numel();
  const int blocks = std::min<int64_t>((n + 255) / 256, 2048);
  weighted_bincount_kernel<<<std::max(blocks, 1), 256, 0, at::cuda::getCurrentCUDAStream()>>>(  // BUG(extension-missing-device-guard): no device guard: a loss computed on cuda:1 launches this on the current device
      ids_c.data_ptr<int64_t>(), w_c.data_ptr<float>(), n, nbins, counts.data_ptr<float>());
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return counts;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("weighted_bincount", &weighted_bincount, "weighted bincount (CUDA)");
}
