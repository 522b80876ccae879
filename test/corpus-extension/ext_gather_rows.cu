// Embedding-style row gather with a CUDAGuard and packed accessors (recommender kernels), forward only.
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/library.h>

template <typename scalar_t>
__global__ void gather_rows_kernel(const at::PackedTensorAccessor32<scalar_t, 2, at::RestrictPtrTraits> table,
                                   const at::PackedTensorAccessor32<int64_t, 1, at::RestrictPtrTraits> ids,
                                   at::PackedTensorAccessor32<scalar_t, 2, at::RestrictPtrTraits> out) {
  const int row = blockIdx.x;
  if (row >= ids.size(0)) return;
  const int64_t src = ids[row];
  for (int c = threadIdx.x; c < out.size(1); c += blockDim.x) out[row][c] = table[src][c];
}

at::Tensor gather_rows(const at::Tensor& table, const at::Tensor& ids) {
  TORCH_CHECK(table.device().is_cuda(), "table must be a CUDA tensor");
  TORCH_CHECK(ids.device().is_cuda(), "ids must be a CUDA tensor");
  TORCH_CHECK(table.device() == ids.device(), "table and ids must be on the same GPU, got ", table.device(),
              " and ", ids.device());
  TORCH_CHECK(ids.scalar_type() == at::kLong && table.dim() == 2 && ids.dim() == 1, "bad arguments");
  const c10::cuda::CUDAGuard device_guard(table.device());
  auto out = at::empty({ids.size(0), table.size(1)}, table.options());
  if (out.numel() == 0) return out;
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(table.scalar_type(), "gather_rows", [&] {
    gather_rows_kernel<scalar_t><<<ids.size(0), 128, 0, at::cuda::getCurrentCUDAStream()>>>(
        table.packed_accessor32<scalar_t, 2, at::RestrictPtrTraits>(),
        ids.packed_accessor32<int64_t, 1, at::RestrictPtrTraits>(),
        out.packed_accessor32<scalar_t, 2, at::RestrictPtrTraits>());
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

TORCH_LIBRARY(embed_ops, m) {
  m.def("gather_rows(Tensor table, Tensor ids) -> Tensor");
}

TORCH_LIBRARY_IMPL(embed_ops, CUDA, m) {
  m.impl("gather_rows", &gather_rows);
}
