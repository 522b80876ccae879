// Packs int4 weights two per byte with per-group scales (AWQ-style quantiser), output placed with .device(w.device()).
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

#include <vector>

#define CHECK_CUDA(x) TORCH_CHECK(x.device().is_cuda(), #x " must be a CUDA tensor")
#define CHECK_CONTIGUOUS(x) TORCH_CHECK(x.is_contiguous(), #x " must be contiguous")
#define CHECK_INPUT(x) CHECK_CUDA(x); CHECK_CONTIGUOUS(x)

__global__ void group_scale_kernel(const at::Half* __restrict__ w, float* __restrict__ scales, int cols, int group) {
  const int row = blockIdx.y, g = blockIdx.x * blockDim.x + threadIdx.x;
  const int groups = cols / group;
  if (g >= groups) return;
  float m = 0.f;
  for (int c = g * group; c < (g + 1) * group; ++c) m = fmaxf(m, fabsf(static_cast<float>(w[row * cols + c])));
  scales[row * groups + g] = fmaxf(m, 1e-6f) / 7.f;
}

__global__ void pack_int4_kernel(const at::Half* __restrict__ w, const float* __restrict__ scales,
                                 uint8_t* __restrict__ packed, int cols, int group) {
  const int row = blockIdx.y, p = blockIdx.x * blockDim.x + threadIdx.x;
  if (2 * p >= cols) return;
  const int groups = cols / group;
  const float s0 = scales[row * groups + (2 * p) / group], s1 = scales[row * groups + (2 * p + 1) / group];
  const int q0 = max(-8, min(7, __float2int_rn(static_cast<float>(w[row * cols + 2 * p]) / s0)));
  const int q1 = max(-8, min(7, __float2int_rn(static_cast<float>(w[row * cols + 2 * p + 1]) / s1)));
  packed[row * (cols / 2) + p] = static_cast<uint8_t>((q0 & 0xF) | ((q1 & 0xF) << 4));
}

std::vector<torch::Tensor> pack_int4(torch::Tensor w, int64_t group) {
  CHECK_INPUT(w);
  TORCH_CHECK(w.scalar_type() == torch::kHalf && w.dim() == 2, "w must be a 2-D fp16 tensor");
  TORCH_CHECK(w.size(1) % group == 0 && group % 2 == 0, "columns must split into even groups");
  const at::cuda::OptionalCUDAGuard device_guard(device_of(w));
  const int rows = w.size(0), cols = w.size(1), groups = cols / group;
  auto scales = torch::empty({rows, groups}, torch::dtype(torch::kFloat32).device(w.device()));
  auto packed = torch::empty({rows, cols / 2}, torch::TensorOptions().dtype(torch::kUInt8).device(w.device()));
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  group_scale_kernel<<<dim3((groups + 127) / 128, rows), 128, 0, stream>>>(
      w.data_ptr<at::Half>(), scales.data_ptr<float>(), cols, group);
  pack_int4_kernel<<<dim3((cols / 2 + 255) / 256, rows), 256, 0, stream>>>(
      w.data_ptr<at::Half>(), scales.data_ptr<float>(), packed.data_ptr<uint8_t>(), cols, group);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return {packed, scales};
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("pack_int4", &pack_int4, "pack fp16 weights into int4 with per-group scales (CUDA)");
}
