// RoI max pooling (Fast R-CNN): binding that allocates outputs and passes raw pointers to ext_roi_pool_kernel.cu.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

#include <vector>

void roi_pool_forward_launcher(const float* input, const float* rois, float* output, int* argmax,
                               int num_rois, int channels, int height, int width, int pooled_h,
                               int pooled_w, float spatial_scale, cudaStream_t stream);
void roi_pool_backward_launcher(const float* grad_output, const int* argmax, float* grad_input,
                                int num_rois, int channels, int height, int width, int pooled_h,
                                int pooled_w, cudaStream_t stream);

std::vector<torch::Tensor> roi_pool_forward(torch::Tensor input, torch::Tensor rois, int64_t pooled_h,
                                            int64_t pooled_w, double spatial_scale) {
  TORCH_CHECK(input.is_cuda(), "input must be a CUDA tensor");
  TORCH_CHECK(rois.dim() == 2 && rois.size(1) == 5, "rois must be [K, 5] (batch index, x1, y1, x2, y2)");
  TORCH_CHECK(input.scalar_type() == torch::kFloat && rois.scalar_type() == torch::kFloat,
              "float32 only");
  TORCH_CHECK(rois.is_contiguous(), "rois must be contiguous");
  const at::cuda::OptionalCUDAGuard device_guard(device_of(input));
  auto input_c = input.contiguous();
  const int num_rois = rois.size(0), channels = input.size(1);
  auto output = torch::zeros({num_rois, channels, pooled_h, pooled_w}, input.options());
  auto argmax = torch::zeros({num_rois, channels, pooled_h, pooled_w}, torch::kInt);  // BUG(extension-output-device): argmax gets a dtype only: a CPU tensor whose host pointer the forward kernel writes
  const float* rois_ptr = rois.data_ptr<float>();  // BUG(extension-unchecked-device): only input is checked to be on CUDA; CPU rois (the usual output of a Python proposal step) become a host pointer read by the kernel
  roi_pool_forward_launcher(input_c.data_ptr<float>(), rois_ptr, output.data_ptr<float>(),
                            argmax.data_ptr<int>(), num_rois, channels, input.size(2), input.size(3),
                            pooled_h, pooled_w, spatial_scale, at::cuda::getCurrentCUDAStream());
  return {output, argmax};
}

torch::Tensor roi_pool_backward(torch::Tensor grad_output, torch::Tensor argmax, int64_t batch,
                                int64_t channels, int64_t height, int64_t width) {
  TORCH_CHECK(grad_output.is_cuda() && argmax.is_cuda(), "grad_output and argmax must be CUDA tensors");
  TORCH_CHECK(grad_output.device() == argmax.device(), "grad_output and argmax on different devices");
  const at::cuda::OptionalCUDAGuard device_guard(device_of(grad_output));
  auto grad_c = grad_output.contiguous();
  auto argmax_c = argmax.contiguous();
  auto grad_input = torch::zeros({batch, channels, height, width}, grad_output.options());
  roi_pool_backward_launcher(grad_c.data_ptr<float>(), argmax_c.data_ptr<int>(),
                             grad_input.data_ptr<float>(), grad_output.size(0), channels, height,
                             width, grad_output.size(2), grad_output.size(3),
                             at::cuda::getCurrentCUDAStream());
  return grad_input;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("forward", &roi_pool_forward, "RoI pool forward (CUDA)");
  m.def("backward", &roi_pool_backward, "RoI pool backward (CUDA)");
}
