// Bird's-eye-view NMS for axis-aligned 3-D boxes (OpenPCDet-style): device mask, host reduction via an async copy on the current stream.
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/extension.h>

#include <vector>

constexpr int kBlock = 64;

__device__ inline float bev_iou(const float* a, const float* b) {
  const float ax1 = a[0] - a[3] / 2, ax2 = a[0] + a[3] / 2, ay1 = a[1] - a[4] / 2, ay2 = a[1] + a[4] / 2;
  const float bx1 = b[0] - b[3] / 2, bx2 = b[0] + b[3] / 2, by1 = b[1] - b[4] / 2, by2 = b[1] + b[4] / 2;
  const float w = fmaxf(fminf(ax2, bx2) - fmaxf(ax1, bx1), 0.f), h = fmaxf(fminf(ay2, by2) - fmaxf(ay1, by1), 0.f);
  const float inter = w * h;
  return inter / fmaxf(a[3] * a[4] + b[3] * b[4] - inter, 1e-6f);
}

__global__ void bev_nms_kernel(int n, float thresh, const float* boxes, unsigned long long* mask) {
  const int row = blockIdx.y, col = blockIdx.x;
  const int cur = row * kBlock + threadIdx.x;
  if (cur >= n) return;
  const int col_blocks = (n + kBlock - 1) / kBlock;
  unsigned long long t = 0;
  for (int i = 0; i < kBlock; ++i) {
    const int other = col * kBlock + i;
    if (other < n && other > cur && bev_iou(boxes + cur * 7, boxes + other * 7) > thresh) t |= 1ULL << i;
  }
  mask[cur * col_blocks + col] = t;
}

torch::Tensor bev_nms(torch::Tensor boxes, double thresh) {
  TORCH_CHECK(boxes.is_cuda(), "boxes must be a CUDA tensor");
  TORCH_CHECK(boxes.dim() == 2 && boxes.size(1) == 7, "boxes must be [N, 7], sorted by score");
  const at::cuda::OptionalCUDAGuard device_guard(device_of(boxes));
  auto boxes_c = boxes.to(torch::kFloat).contiguous();
  const int n = boxes.size(0);
  const int col_blocks = (n + kBlock - 1) / kBlock;
  auto mask = torch::empty({n * col_blocks}, boxes.options().dtype(torch::kLong));
  auto stream = at::cuda::getCurrentCUDAStream();
  if (n > 0) {
    bev_nms_kernel<<<dim3(col_blocks, col_blocks), kBlock, 0, stream>>>(
        n, thresh, boxes_c.data_ptr<float>(), reinterpret_cast<unsigned long long*>(mask.data_ptr<int64_t>()));
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  }

  std::vector<unsigned long long> mask_host(static_cast<size_t>(n) * col_blocks);
  C10_CUDA_CHECK(cudaMemcpyAsync(mask_host.data(), mask.data_ptr<int64_t>(), mask_host.size() * sizeof(unsigned long long),
                                 cudaMemcpyDeviceToHost, stream));
  C10_CUDA_CHECK(cudaStreamSynchronize(stream));

  std::vector<unsigned long long> removed(col_blocks, 0);
  std::vector<int64_t> keep;
  for (int i = 0; i < n; ++i) {
    if (!(removed[i / kBlock] & (1ULL << (i % kBlock)))) {
      keep.push_back(i);
      for (int j = i / kBlock; j < col_blocks; ++j) removed[j] |= mask_host[static_cast<size_t>(i) * col_blocks + j];
    }
  }
  return torch::tensor(keep, torch::dtype(torch::kLong)).to(boxes.device());
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("bev_nms", &bev_nms, "BEV NMS of [N, 7] boxes (CUDA)");
}
