// Farthest point sampling over a batch of clouds (Pointnet2_PyTorch-style), index output created under the device guard.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), #x " must be a CUDA tensor")
#define CHECK_CONTIGUOUS(x) TORCH_CHECK(x.is_contiguous(), #x " must be contiguous")
#define CHECK_IS_FLOAT(x) TORCH_CHECK(x.scalar_type() == at::ScalarType::Float, #x " must be a float tensor")

__global__ void fps_kernel(int b, int n, int m, const float* __restrict__ dataset, float* __restrict__ temp,
                           int* __restrict__ idxs) {
  __shared__ float dists[256];
  __shared__ int dists_i[256];
  const int bs = blockIdx.x;
  dataset += bs * n * 3;
  temp += bs * n;
  idxs += bs * m;
  int old = 0;
  if (threadIdx.x == 0) idxs[0] = old;
  __syncthreads();
  for (int j = 1; j < m; ++j) {
    int besti = 0;
    float best = -1.f;
    for (int k = threadIdx.x; k < n; k += blockDim.x) {
      const float dx = dataset[k * 3] - dataset[old * 3], dy = dataset[k * 3 + 1] - dataset[old * 3 + 1],
                  dz = dataset[k * 3 + 2] - dataset[old * 3 + 2];
      const float d = fminf(dx * dx + dy * dy + dz * dz, temp[k]);
      temp[k] = d;
      if (d > best) { best = d; besti = k; }
    }
    dists[threadIdx.x] = best;
    dists_i[threadIdx.x] = besti;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
      if (threadIdx.x < s && dists[threadIdx.x + s] > dists[threadIdx.x]) {
        dists[threadIdx.x] = dists[threadIdx.x + s];
        dists_i[threadIdx.x] = dists_i[threadIdx.x + s];
      }
      __syncthreads();
    }
    old = dists_i[0];
    if (threadIdx.x == 0) idxs[j] = old;
    __syncthreads();
  }
}

at::Tensor furthest_point_sample(at::Tensor points, int64_t nsamples) {
  CHECK_CUDA(points);
  CHECK_CONTIGUOUS(points);
  CHECK_IS_FLOAT(points);
  const at::cuda::CUDAGuard device_guard(points.device());
  // Under the guard the current device is points' device, so kCUDA without an index names it.
  at::Tensor output = torch::zeros({points.size(0), nsamples}, at::device(at::kCUDA).dtype(at::ScalarType::Int));
  at::Tensor tmp = torch::full({points.size(0), points.size(1)}, 1e10, at::device(at::kCUDA).dtype(at::ScalarType::Float));
  fps_kernel<<<points.size(0), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      points.size(0), points.size(1), nsamples, points.data_ptr<float>(), tmp.data_ptr<float>(), output.data_ptr<int>());
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return output;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("furthest_point_sample", &furthest_point_sample, "farthest point sampling (CUDA)");
}
