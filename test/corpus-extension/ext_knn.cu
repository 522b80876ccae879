// k nearest neighbours inside one point cloud (point-transformer style), brute force per query point.
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <torch/extension.h>

#include <tuple>

template <int K>
__global__ void self_knn_kernel(const float* __restrict__ xyz, int b, int n, int64_t* __restrict__ idx,
                                float* __restrict__ dist2) {
  const int bs = blockIdx.y;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (bs >= b || i >= n) return;
  const float* pts = xyz + bs * n * 3;
  const float qx = pts[i * 3], qy = pts[i * 3 + 1], qz = pts[i * 3 + 2];
  float best[K];
  int best_i[K];
  for (int k = 0; k < K; ++k) { best[k] = 1e10f; best_i[k] = 0; }
  for (int j = 0; j < n; ++j) {
    const float dx = pts[j * 3] - qx, dy = pts[j * 3 + 1] - qy, dz = pts[j * 3 + 2] - qz;
    const float d = dx * dx + dy * dy + dz * dz;
    if (d < best[K - 1]) {
      int k = K - 1;
      while (k > 0 && best[k - 1] > d) { best[k] = best[k - 1]; best_i[k] = best_i[k - 1]; --k; }
      best[k] = d;
      best_i[k] = j;
    }
  }
  for (int k = 0; k < K; ++k) {
    idx[(bs * n + i) * K + k] = best_i[k];
    dist2[(bs * n + i) * K + k] = best[k];
  }
}

std::tuple<torch::Tensor, torch::Tensor> self_knn16(torch::Tensor xyz) {
  TORCH_CHECK(xyz.dim() == 3 && xyz.size(2) == 3, "xyz must be [B, N, 3]");
  TORCH_CHECK(xyz.scalar_type() == torch::kFloat32, "xyz must be float32");
  xyz = xyz.contiguous();
  const int b = xyz.size(0), n = xyz.size(1);
  auto idx = torch::empty({b, n, 16}, xyz.options().dtype(torch::kLong));
  auto dist2 = torch::empty({b, n, 16}, xyz.options());
  const float* xyz_ptr = xyz.data_ptr<float>();  // BUG(extension-unchecked-device): nothing checks that xyz is a CUDA tensor: a CPU cloud from Python hands a host pointer to the kernel
  const dim3 blocks((n + 127) / 128, b);
  self_knn_kernel<16><<<blocks, 128, 0, at::cuda::getCurrentCUDAStream()>>>(  // BUG(extension-missing-device-guard): no device guard: the kernel and the current stream are those of the current device, not of xyz
      xyz_ptr, b, n, idx.data_ptr<int64_t>(), dist2.data_ptr<float>());
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return {idx, dist2};
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("self_knn16", &self_knn16, "16 nearest neighbours of every point (CUDA)");
}
