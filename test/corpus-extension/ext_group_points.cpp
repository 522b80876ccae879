// PointNet++ grouping and farthest point sampling: binding; the raw-pointer launchers live in ext_group_points_kernel.cu.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

void group_points_launcher(int b, int c, int n, int npoints, int nsample, const float* points,
                           const int* idx, float* out, cudaStream_t stream);
void furthest_point_sampling_launcher(int b, int n, int m, const float* points, float* temp, int* idx,
                                      cudaStream_t stream);

#define CHECK_INPUT(x)                                      \
  TORCH_CHECK(x.is_cuda(), #x " must be a CUDA tensor");    \
  TORCH_CHECK(x.is_contiguous(), #x " must be contiguous")

torch::Tensor group_points(torch::Tensor points, torch::Tensor idx) {
  CHECK_INPUT(points);
  CHECK_INPUT(idx);
  TORCH_CHECK(points.device() == idx.device(), "points and idx must be on the same device");
  const at::cuda::OptionalCUDAGuard device_guard(device_of(points));
  const int b = points.size(0), c = points.size(1), n = points.size(2);
  const int npoints = idx.size(1), nsample = idx.size(2);
  auto out = torch::zeros({b, c, npoints, nsample}, torch::dtype(torch::kFloat32));  // BUG(extension-output-device): dtype only, so the grouped features are a CPU tensor that the CUDA kernel writes
  group_points_launcher(b, c, n, npoints, nsample, points.data_ptr<float>(), idx.data_ptr<int>(),
                        out.data_ptr<float>(), at::cuda::getCurrentCUDAStream());
  return out;
}

torch::Tensor furthest_point_sampling(torch::Tensor points, int64_t num_samples) {
  TORCH_CHECK(points.dim() == 3 && points.size(2) == 3, "points must be [B, N, 3]");
  const at::cuda::CUDAGuard device_guard(points.get_device());
  const int b = points.size(0), n = points.size(1);
  auto temp = torch::full({b, n}, 1e10, points.options());
  auto idx = torch::zeros({b, num_samples}, points.options().dtype(torch::kInt32));
  furthest_point_sampling_launcher(b, n, num_samples, points.data_ptr<float>(),  // BUG(extension-unchecked-device): unlike group_points, nothing checks that points is a CUDA tensor before its pointer goes to the kernel
                                   temp.data_ptr<float>(), idx.data_ptr<int>(),
                                   at::cuda::getCurrentCUDAStream());
  return idx;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("group_points", &group_points, "group points by ball-query indices (CUDA)");
  m.def("furthest_point_sampling", &furthest_point_sampling, "farthest point sampling (CUDA)");
}
