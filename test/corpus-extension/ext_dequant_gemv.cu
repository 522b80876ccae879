// Unpacks GPTQ-style int4 weights (two nibbles per byte, per-group scale folded in) into fp16 for a following GEMM.
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <torch/library.h>

__global__ void unpack_int4_kernel(
    const at::PackedTensorAccessor32<uint8_t, 2, at::RestrictPtrTraits> packed,
    at::PackedTensorAccessor32<at::Half, 2, at::RestrictPtrTraits> out, float scale, int zero) {
  const int row = blockIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= packed.size(0) || col >= packed.size(1)) return;
  const uint8_t byte = packed[row][col];
  out[row][2 * col] = static_cast<at::Half>(((byte & 0xF) - zero) * scale);
  out[row][2 * col + 1] = static_cast<at::Half>(((byte >> 4) - zero) * scale);
}

at::Tensor unpack_int4(const at::Tensor& packed, double scale, int64_t zero) {
  TORCH_CHECK(packed.scalar_type() == at::kByte, "packed must be uint8");
  TORCH_CHECK(packed.dim() == 2, "packed must be [rows, cols/2]");
  const int rows = packed.size(0), half_cols = packed.size(1);
  auto out = at::empty({rows, 2 * half_cols}, packed.options().dtype(at::kHalf));
  auto packed_acc = packed.packed_accessor32<uint8_t, 2, at::RestrictPtrTraits>();  // BUG(extension-unchecked-device): registered as CompositeExplicitAutograd, so a CPU tensor reaches this kernel launcher unchecked
  const dim3 blocks((half_cols + 255) / 256, rows);
  unpack_int4_kernel<<<blocks, 256, 0, at::cuda::getCurrentCUDAStream()>>>(  // BUG(extension-missing-device-guard): no device guard before the launch; weights sharded on cuda:1 are unpacked by a kernel on the current device
      packed_acc, out.packed_accessor32<at::Half, 2, at::RestrictPtrTraits>(), scale, zero);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

TORCH_LIBRARY(quant_ops, m) {
  m.def("unpack_int4(Tensor packed, float scale, int zero) -> Tensor");
}

TORCH_LIBRARY_IMPL(quant_ops, CompositeExplicitAutograd, m) {
  m.impl("unpack_int4", &unpack_int4);
}
