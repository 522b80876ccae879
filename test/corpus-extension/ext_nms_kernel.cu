// Greedy box NMS (detectron-style): a bitmask kernel over 64-box blocks, reduced on the host.
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <torch/library.h>

#include <vector>

#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), #x " must be a CUDA tensor")

constexpr int kThreadsPerBlock = sizeof(unsigned long long) * 8;

__device__ inline float iou(const float* a, const float* b) {
  const float left = fmaxf(a[0], b[0]), right = fminf(a[2], b[2]);
  const float top = fmaxf(a[1], b[1]), bottom = fminf(a[3], b[3]);
  const float w = fmaxf(right - left, 0.f), h = fmaxf(bottom - top, 0.f);
  const float inter = w * h;
  const float area_a = (a[2] - a[0]) * (a[3] - a[1]);
  const float area_b = (b[2] - b[0]) * (b[3] - b[1]);
  return inter / (area_a + area_b - inter);
}

__global__ void nms_mask_kernel(int n_boxes, float iou_threshold, const float* boxes,
                                unsigned long long* mask) {
  const int row_start = blockIdx.y, col_start = blockIdx.x;
  if (row_start > col_start) return;
  const int row_size = min(n_boxes - row_start * kThreadsPerBlock, kThreadsPerBlock);
  const int col_size = min(n_boxes - col_start * kThreadsPerBlock, kThreadsPerBlock);

  __shared__ float block_boxes[kThreadsPerBlock * 4];
  if (threadIdx.x < col_size) {
    for (int k = 0; k < 4; ++k)
      block_boxes[threadIdx.x * 4 + k] = boxes[(kThreadsPerBlock * col_start + threadIdx.x) * 4 + k];
  }
  __syncthreads();

  if (threadIdx.x < row_size) {
    const int cur = kThreadsPerBlock * row_start + threadIdx.x;
    const float* cur_box = boxes + cur * 4;
    unsigned long long t = 0;
    const int start = row_start == col_start ? threadIdx.x + 1 : 0;
    for (int i = start; i < col_size; ++i) {
      if (iou(cur_box, block_boxes + i * 4) > iou_threshold) t |= 1ULL << i;
    }
    const int col_blocks = (n_boxes + kThreadsPerBlock - 1) / kThreadsPerBlock;
    mask[cur * col_blocks + col_start] = t;
  }
}

__global__ void count_kept_kernel(const int64_t* keep, int n, int* num_kept) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && keep[i] >= 0) atomicAdd(num_kept, 1);
}

at::Tensor nms_cuda(const at::Tensor& dets, const at::Tensor& scores, double iou_threshold) {
  CHECK_CUDA(dets);
  CHECK_CUDA(scores);
  TORCH_CHECK(dets.device() == scores.device(), "dets and scores must be on the same device");
  TORCH_CHECK(dets.dim() == 2 && dets.size(1) == 4, "dets must be [N, 4]");
  if (dets.numel() == 0) return at::empty({0}, dets.options().dtype(at::kLong));

  auto order = std::get<1>(scores.sort(/*stable=*/true, /*dim=*/0, /*descending=*/true));
  auto dets_sorted = dets.index_select(0, order).to(at::kFloat).contiguous();
  const int n = dets.size(0);
  const int col_blocks = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;

  at::Tensor mask = at::empty({n * col_blocks}, at::kLong);  // BUG(extension-output-device): no device in the options: a CPU buffer, and the kernel below writes through its host pointer
  const dim3 blocks(col_blocks, col_blocks), threads(kThreadsPerBlock);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  nms_mask_kernel<<<blocks, threads, 0, stream>>>(  // BUG(extension-missing-device-guard): no guard for dets' device: the mask kernel runs on the current device
      n, static_cast<float>(iou_threshold), dets_sorted.data_ptr<float>(),
      reinterpret_cast<unsigned long long*>(mask.data_ptr<int64_t>()));
  C10_CUDA_KERNEL_LAUNCH_CHECK();

  at::Tensor mask_cpu = mask.to(at::kCPU);
  const unsigned long long* mask_host = reinterpret_cast<unsigned long long*>(mask_cpu.data_ptr<int64_t>());
  std::vector<unsigned long long> removed(col_blocks, 0);
  at::Tensor keep = at::full({n}, -1, at::TensorOptions().dtype(at::kLong));
  int64_t* keep_out = keep.data_ptr<int64_t>();
  int num_to_keep = 0;
  for (int i = 0; i < n; ++i) {
    const int nblock = i / kThreadsPerBlock, inblock = i % kThreadsPerBlock;
    if (!(removed[nblock] & (1ULL << inblock))) {
      keep_out[num_to_keep++] = i;
      const unsigned long long* p = mask_host + i * col_blocks;
      for (int j = nblock; j < col_blocks; ++j) removed[j] |= p[j];
    }
  }
  at::Tensor keep_dev = keep.to(order.device());
  at::Tensor kept = at::zeros({1}, dets.options().dtype(at::kInt));
  count_kept_kernel<<<(n + 255) / 256, 256, 0, stream>>>(keep_dev.data_ptr<int64_t>(), n,
                                                         kept.data_ptr<int>());
  int kept_host = 0;
  cudaMemcpy(&kept_host, kept.data_ptr<int>(), sizeof(int), cudaMemcpyDeviceToHost);  // BUG(extension-default-stream): a synchronous copy on the legacy default stream; it is not ordered after the count kernel on the current stream
  TORCH_CHECK(kept_host == num_to_keep, "NMS bookkeeping disagrees");
  return order.index({keep_dev.narrow(0, 0, num_to_keep)});
}

TORCH_LIBRARY(detops, m) {
  m.def("nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor");
}

TORCH_LIBRARY_IMPL(detops, CUDA, m) {
  m.impl("nms", &nms_cuda);
}
