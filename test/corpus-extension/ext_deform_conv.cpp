// Deformable convolution v1 im2col (detectron2-style binding): checks, guard and stream here; raw-pointer launcher in ext_deform_conv_kernel.cu.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

void deformable_im2col_launcher(const float* data_im, const float* data_offset, int channels, int height,
                                int width, int kernel_h, int kernel_w, int pad_h, int pad_w, int stride_h,
                                int stride_w, int height_col, int width_col, float* data_col,
                                cudaStream_t stream);

#define CHECK_CUDA(x) TORCH_CHECK(x.is_cuda(), #x " must be a CUDA tensor")
#define CHECK_CONTIGUOUS(x) TORCH_CHECK(x.is_contiguous(), #x " must be contiguous")
#define CHECK_INPUT(x) \
  CHECK_CUDA(x);       \
  CHECK_CONTIGUOUS(x)

torch::Tensor deform_conv_forward(torch::Tensor input, torch::Tensor offset, torch::Tensor weight,
                                  int64_t pad, int64_t stride) {
  CHECK_INPUT(input);
  CHECK_INPUT(offset);
  CHECK_INPUT(weight);
  TORCH_CHECK(offset.device() == input.device() && weight.device() == input.device(),
              "input, offset and weight must be on the same device");
  TORCH_CHECK(input.scalar_type() == torch::kFloat, "float32 only");
  const at::cuda::OptionalCUDAGuard device_guard(device_of(input));

  const int batch = input.size(0), channels = input.size(1), height = input.size(2), width = input.size(3);
  const int out_channels = weight.size(0), kernel_h = weight.size(2), kernel_w = weight.size(3);
  const int height_col = (height + 2 * pad - kernel_h) / stride + 1;
  const int width_col = (width + 2 * pad - kernel_w) / stride + 1;
  auto columns = torch::empty({channels * kernel_h * kernel_w, height_col * width_col}, input.options());
  auto output = torch::empty({batch, out_channels, height_col, width_col}, input.options());
  auto weight_2d = weight.view({out_channels, -1});
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  for (int b = 0; b < batch; ++b) {
    auto input_b = input[b];
    auto offset_b = offset[b];
    deformable_im2col_launcher(input_b.data_ptr<float>(), offset_b.data_ptr<float>(), channels, height,
                               width, kernel_h, kernel_w, pad, pad, stride, stride, height_col, width_col,
                               columns.data_ptr<float>(), stream);
    output[b] = weight_2d.mm(columns).view({out_channels, height_col, width_col});
  }
  return output;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("deform_conv_forward", &deform_conv_forward, "deformable convolution forward (CUDA)");
}
