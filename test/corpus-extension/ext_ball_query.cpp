// PointNet++ ball query and point gathering (mmcv-style binding): checks the inputs, allocates, calls raw-pointer launchers.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), #x " must be a CUDA tensor")
#define CHECK_CONTIGUOUS(x) TORCH_CHECK(x.is_contiguous(), #x " must be contiguous")
#define CHECK_INPUT(x) \
  CHECK_CUDA(x);       \
  CHECK_CONTIGUOUS(x)

void ball_query_launcher(int b, int n, int m, float min_radius, float max_radius, int nsample,
                         const float* new_xyz, const float* xyz, int* idx);
void gather_points_launcher(int b, int c, int n, int npoints, const float* points, const int* idx,
                            float* out, cudaStream_t stream);

torch::Tensor ball_query_forward(torch::Tensor new_xyz, torch::Tensor xyz, double min_radius,
                                 double max_radius, int64_t nsample) {
  CHECK_INPUT(new_xyz);
  CHECK_INPUT(xyz);
  TORCH_CHECK(new_xyz.device() == xyz.device(), "new_xyz and xyz must be on the same device");
  const at::cuda::OptionalCUDAGuard device_guard(device_of(xyz));
  const int b = xyz.size(0), n = xyz.size(1), m = new_xyz.size(1);
  auto idx = torch::zeros({b, m, nsample}, xyz.options().dtype(torch::kInt32));
  ball_query_launcher(b, n, m, min_radius, max_radius, nsample, new_xyz.data_ptr<float>(),
                      xyz.data_ptr<float>(), idx.data_ptr<int>());
  return idx;
}

torch::Tensor gather_points_forward(torch::Tensor points, torch::Tensor idx) {
  CHECK_INPUT(points);
  CHECK_INPUT(idx);
  TORCH_CHECK(points.device() == idx.device(), "points and idx must be on the same device");
  TORCH_CHECK(idx.scalar_type() == torch::kInt32, "idx must be int32");
  const int b = points.size(0), c = points.size(1), n = points.size(2), npoints = idx.size(1);
  auto out = torch::empty({b, c, npoints}, points.options());
  gather_points_launcher(b, c, n, npoints, points.data_ptr<float>(), idx.data_ptr<int>(),
                         out.data_ptr<float>(), at::cuda::getCurrentCUDAStream());
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("ball_query", &ball_query_forward, "ball query (CUDA)");
  m.def("gather_points", &gather_points_forward, "gather points by index (CUDA)");
}
