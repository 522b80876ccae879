// Dynamic voxelisation of a point cloud (mmdet3d-style): per-point voxel coordinates, then the count of in-range points.
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/library.h>

#include <tuple>
#include <vector>

__global__ void point_to_voxel_kernel(const float* __restrict__ points, int* __restrict__ coors,
                                      int* __restrict__ num_valid, int num_points, int num_features,
                                      float vx, float vy, float vz, float x0, float y0, float z0,
                                      int gx, int gy, int gz) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= num_points) return;
  const float* p = points + (int64_t)i * num_features;
  const int cx = floorf((p[0] - x0) / vx), cy = floorf((p[1] - y0) / vy), cz = floorf((p[2] - z0) / vz);
  const bool inside = cx >= 0 && cx < gx && cy >= 0 && cy < gy && cz >= 0 && cz < gz;
  coors[i * 3 + 0] = inside ? cz : -1;
  coors[i * 3 + 1] = inside ? cy : -1;
  coors[i * 3 + 2] = inside ? cx : -1;
  if (inside) atomicAdd(num_valid, 1);
}

std::tuple<at::Tensor, int64_t> dynamic_voxelize(const at::Tensor& points, std::vector<double> voxel_size,
                                         std::vector<double> range) {
  TORCH_CHECK(points.is_cuda(), "points must be a CUDA tensor");
  TORCH_CHECK(points.dim() == 2 && points.size(1) >= 3, "points must be [N, C>=3]");
  TORCH_CHECK(voxel_size.size() == 3 && range.size() == 6, "voxel_size needs 3 values, range 6");
  const c10::cuda::CUDAGuard device_guard(points.device());
  auto pts = points.contiguous().to(at::kFloat);
  const int num_points = pts.size(0), num_features = pts.size(1);
  const int gx = std::round((range[3] - range[0]) / voxel_size[0]);
  const int gy = std::round((range[4] - range[1]) / voxel_size[1]);
  const int gz = std::round((range[5] - range[2]) / voxel_size[2]);

  auto coors = at::empty({num_points, 3}, at::TensorOptions().dtype(at::kInt));  // BUG(extension-output-device): the options carry a dtype but no device: coors is a CPU tensor the kernel writes and the op returns
  auto num_valid = at::zeros({1}, pts.options().dtype(at::kInt));
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  point_to_voxel_kernel<<<(num_points + 511) / 512, 512, 0, stream>>>(
      pts.data_ptr<float>(), coors.data_ptr<int>(), num_valid.data_ptr<int>(), num_points, num_features,
      voxel_size[0], voxel_size[1], voxel_size[2], range[0], range[1], range[2], gx, gy, gz);
  C10_CUDA_KERNEL_LAUNCH_CHECK();

  int valid_host = 0;
  cudaMemcpy(&valid_host, num_valid.data_ptr<int>(), sizeof(int), cudaMemcpyDeviceToHost);  // BUG(extension-default-stream): synchronous cudaMemcpy on the legacy stream instead of cudaMemcpyAsync on the current stream + synchronize
  return {coors, valid_host};
}

TORCH_LIBRARY(voxel_ops, m) {
  m.def("dynamic_voxelize(Tensor points, float[] voxel_size, float[] range) -> (Tensor, int)");
}

TORCH_LIBRARY_IMPL(voxel_ops, CUDA, m) {
  m.impl("dynamic_voxelize", &dynamic_voxelize);
}
