// Multi-scale deformable attention (mmcv-style binding): CUDA path under at::DeviceGuard, CPU path rejected.
#include <torch/extension.h>
#include <ATen/DeviceGuard.h>

at::Tensor ms_deform_attn_cuda_forward(const at::Tensor& value, const at::Tensor& spatial_shapes,
                                       const at::Tensor& level_start_index, const at::Tensor& sampling_loc,
                                       const at::Tensor& attn_weight);

#define CHECK_CUDA_INPUT(x)                                    \
  TORCH_CHECK(x.device().is_cuda(), #x " must be a CUDA tensor"); \
  TORCH_CHECK(x.is_contiguous(), #x " must be contiguous")

at::Tensor ms_deform_attn_forward(const at::Tensor& value, const at::Tensor& spatial_shapes,
                                  const at::Tensor& level_start_index, const at::Tensor& sampling_loc,
                                  const at::Tensor& attn_weight) {
  if (value.device().is_cuda()) {
    CHECK_CUDA_INPUT(value);
    CHECK_CUDA_INPUT(spatial_shapes);
    CHECK_CUDA_INPUT(level_start_index);
    CHECK_CUDA_INPUT(sampling_loc);
    CHECK_CUDA_INPUT(attn_weight);
    for (const at::Tensor* t : {&spatial_shapes, &level_start_index, &sampling_loc, &attn_weight}) {
      TORCH_CHECK(t->device() == value.device(), "ms_deform_attn: all inputs must be on ", value.device());
    }
    at::DeviceGuard guard(value.device());
    return ms_deform_attn_cuda_forward(value, spatial_shapes, level_start_index, sampling_loc, attn_weight);
  }
  AT_ERROR("ms_deform_attn is not implemented on the CPU");
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("ms_deform_attn_forward", &ms_deform_attn_forward, "multi-scale deformable attention forward");
}
