// Magnitude pruning mask: keeps the entries whose |w| is at least a threshold; counts kept entries per row.
#include <ATen/ATen.h>
#include <ATen/DeviceGuard.h>
#include <ATen/cuda/CUDAContext.h>
#include <torch/library.h>

#include <tuple>

__global__ void threshold_mask_kernel(const float* __restrict__ w, bool* __restrict__ mask,
                                      int* __restrict__ kept_per_row, int rows, int cols, float threshold) {
  const int row = blockIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows || col >= cols) return;
  const bool keep = fabsf(w[row * cols + col]) >= threshold;
  mask[row * cols + col] = keep;
  if (keep) atomicAdd(kept_per_row + row, 1);
}

std::tuple<at::Tensor, at::Tensor> magnitude_mask(const at::Tensor& weight, double threshold) {
  TORCH_CHECK(weight.dim() == 2 && weight.scalar_type() == at::kFloat, "weight must be a 2-D float tensor");
  TORCH_CHECK(weight.is_contiguous(), "weight must be contiguous");
  const at::DeviceGuard device_guard(weight.device());
  const int rows = weight.size(0), cols = weight.size(1);
  auto mask = at::empty({rows, cols}, weight.options().dtype(at::kBool));
  auto kept = at::empty({rows}, weight.options().dtype(at::kInt));
  cudaMemset(kept.data_ptr<int>(), 0, rows * sizeof(int));  // BUG(extension-default-stream): cudaMemset is ordered on the legacy stream, not before the kernel on PyTorch's current stream
  const float* w = weight.data_ptr<float>();  // BUG(extension-unchecked-device): registered for CompositeExplicitAutograd and never checked: a CPU weight (pruning before .cuda()) reaches the kernel
  const dim3 blocks((cols + 255) / 256, rows);
  threshold_mask_kernel<<<blocks, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      w, mask.data_ptr<bool>(), kept.data_ptr<int>(), rows, cols, threshold);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return {mask, kept};
}

TORCH_LIBRARY(prune_ops, m) {
  m.def("magnitude_mask(Tensor weight, float threshold) -> (Tensor, Tensor)");
}

TORCH_LIBRARY_IMPL(prune_ops, CompositeExplicitAutograd, m) {
  m.impl("magnitude_mask", &magnitude_mask);
}
