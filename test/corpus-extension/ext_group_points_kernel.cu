// Kernels and launchers of ext_group_points.cpp: grouping by index and farthest point sampling.
#include <cuda_runtime.h>

#include <c10/cuda/CUDAException.h>

__global__ void group_points_kernel(int b, int c, int n, int npoints, int nsample,
                                    const float* __restrict__ points, const int* __restrict__ idx,
                                    float* __restrict__ out) {
  const int bs = blockIdx.z, ch = blockIdx.y;
  const int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (bs >= b || ch >= c || index >= npoints * nsample) return;
  const int pt = index / nsample, s = index % nsample;
  const int src = idx[(bs * npoints + pt) * nsample + s];
  out[((bs * c + ch) * npoints + pt) * nsample + s] = points[(bs * c + ch) * n + src];
}

__global__ void furthest_point_sampling_kernel(int b, int n, int m, const float* __restrict__ points,
                                               float* __restrict__ temp, int* __restrict__ idx) {
  __shared__ float dists[512];
  __shared__ int dists_i[512];
  const int bs = blockIdx.x;
  points += bs * n * 3;
  temp += bs * n;
  idx += bs * m;
  int old = 0;
  if (threadIdx.x == 0) idx[0] = old;
  __syncthreads();
  for (int j = 1; j < m; ++j) {
    int besti = 0;
    float best = -1.f;
    const float x1 = points[old * 3], y1 = points[old * 3 + 1], z1 = points[old * 3 + 2];
    for (int k = threadIdx.x; k < n; k += blockDim.x) {
      const float dx = points[k * 3] - x1, dy = points[k * 3 + 1] - y1, dz = points[k * 3 + 2] - z1;
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
    if (threadIdx.x == 0) idx[j] = old;
    __syncthreads();
  }
}

void group_points_launcher(int b, int c, int n, int npoints, int nsample, const float* points,
                           const int* idx, float* out, cudaStream_t stream) {
  const dim3 blocks((npoints * nsample + 255) / 256, c, b);
  group_points_kernel<<<blocks, 256, 0, stream>>>(b, c, n, npoints, nsample, points, idx, out);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void furthest_point_sampling_launcher(int b, int n, int m, const float* points, float* temp, int* idx,
                                      cudaStream_t stream) {
  furthest_point_sampling_kernel<<<b, 512, 0, stream>>>(b, n, m, points, temp, idx);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}
