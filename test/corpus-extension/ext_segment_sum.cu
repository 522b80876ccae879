// Segment sum over CSR offsets with a CPU path (torch-scatter style): dispatch on the input's device.
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/extension.h>

template <typename scalar_t>
__global__ void segment_sum_kernel(const scalar_t* __restrict__ src, const int64_t* __restrict__ indptr,
                                   scalar_t* __restrict__ out, int64_t num_segments, int64_t cols) {
  const int64_t seg = blockIdx.x;
  if (seg >= num_segments) return;
  for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
    scalar_t acc = 0;
    for (int64_t r = indptr[seg]; r < indptr[seg + 1]; ++r) acc += src[r * cols + c];
    out[seg * cols + c] = acc;
  }
}

static torch::Tensor segment_sum_cpu(const torch::Tensor& src, const torch::Tensor& indptr) {
  const int64_t num_segments = indptr.numel() - 1;
  auto out = torch::zeros({num_segments, src.size(1)}, src.options());
  auto ptr = indptr.accessor<int64_t, 1>();
  for (int64_t s = 0; s < num_segments; ++s) {
    if (ptr[s + 1] > ptr[s]) out[s] = src.slice(0, ptr[s], ptr[s + 1]).sum(0);
  }
  return out;
}

torch::Tensor segment_sum(torch::Tensor src, torch::Tensor indptr) {
  TORCH_CHECK(src.dim() == 2 && indptr.dim() == 1, "src must be [N, C], indptr [S + 1]");
  TORCH_CHECK(indptr.scalar_type() == torch::kLong, "indptr must be int64");
  TORCH_CHECK(src.device() == indptr.device(), "src and indptr must be on the same device");
  if (src.device().is_cpu()) {
    return segment_sum_cpu(src.contiguous(), indptr.contiguous());
  }
  TORCH_CHECK(src.is_cuda(), "segment_sum supports CPU and CUDA tensors, got ", src.device());
  const at::cuda::OptionalCUDAGuard device_guard(device_of(src));
  auto src_c = src.contiguous();
  auto indptr_c = indptr.contiguous();
  const int64_t num_segments = indptr.numel() - 1, cols = src.size(1);
  auto out = torch::empty({num_segments, cols}, src.options());
  if (num_segments == 0) return out;
  AT_DISPATCH_FLOATING_TYPES(src.scalar_type(), "segment_sum", [&] {
    segment_sum_kernel<scalar_t><<<num_segments, 128, 0, at::cuda::getCurrentCUDAStream()>>>(
        src_c.data_ptr<scalar_t>(), indptr_c.data_ptr<int64_t>(), out.data_ptr<scalar_t>(), num_segments, cols);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("segment_sum", &segment_sum, "segment sum over CSR offsets (CPU and CUDA)");
}
