// Kernels and raw-pointer launchers of ext_ball_query.cpp; the binding owns checks, guard and stream.
#include <cuda_runtime.h>

#include <c10/cuda/CUDAException.h>

#define THREADS_PER_BLOCK 256
#define DIVUP(m, n) ((m) / (n) + ((m) % (n) > 0))

__global__ void ball_query_kernel(int b, int n, int m, float min_radius, float max_radius, int nsample,
                                  const float* __restrict__ new_xyz, const float* __restrict__ xyz,
                                  int* __restrict__ idx) {
  const int bs_idx = blockIdx.y;
  const int pt_idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (bs_idx >= b || pt_idx >= m) return;
  new_xyz += bs_idx * m * 3 + pt_idx * 3;
  xyz += bs_idx * n * 3;
  idx += bs_idx * m * nsample + pt_idx * nsample;
  const float max2 = max_radius * max_radius, min2 = min_radius * min_radius;
  int cnt = 0;
  for (int k = 0; k < n; ++k) {
    const float dx = new_xyz[0] - xyz[k * 3], dy = new_xyz[1] - xyz[k * 3 + 1],
                dz = new_xyz[2] - xyz[k * 3 + 2];
    const float d2 = dx * dx + dy * dy + dz * dz;
    if (d2 == 0 || (d2 >= min2 && d2 < max2)) {
      if (cnt == 0) {
        for (int l = 0; l < nsample; ++l) idx[l] = k;
      }
      idx[cnt] = k;
      if (++cnt >= nsample) break;
    }
  }
}

__global__ void gather_points_kernel(int b, int c, int n, int npoints, const float* __restrict__ points,
                                     const int* __restrict__ idx, float* __restrict__ out) {
  const int bs_idx = blockIdx.z, c_idx = blockIdx.y;
  const int pt_idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (bs_idx >= b || c_idx >= c || pt_idx >= npoints) return;
  out[(bs_idx * c + c_idx) * npoints + pt_idx] = points[(bs_idx * c + c_idx) * n + idx[bs_idx * npoints + pt_idx]];
}

void ball_query_launcher(int b, int n, int m, float min_radius, float max_radius, int nsample,
                         const float* new_xyz, const float* xyz, int* idx) {
  const dim3 blocks(DIVUP(m, THREADS_PER_BLOCK), b);
  const dim3 threads(THREADS_PER_BLOCK);
  ball_query_kernel<<<blocks, threads>>>(b, n, m, min_radius, max_radius, nsample, new_xyz, xyz, idx);  // BUG(extension-default-stream): the launcher takes no stream and launches on the legacy default stream, unordered with PyTorch's current stream
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

void gather_points_launcher(int b, int c, int n, int npoints, const float* points, const int* idx,
                            float* out, cudaStream_t stream) {
  const dim3 blocks(DIVUP(npoints, THREADS_PER_BLOCK), c, b);
  const dim3 threads(THREADS_PER_BLOCK);
  gather_points_kernel<<<blocks, threads, 0, stream>>>(b, c, n, npoints, points, idx, out);  // BUG(extension-missing-device-guard): gather_points_forward in ext_ball_query.cpp takes no guard (ball_query_forward does): the launch and its stream belong to the current device
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}
