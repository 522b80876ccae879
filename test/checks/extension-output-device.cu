// Outputs of extension ops allocated off the inputs' device.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

__global__ void copy_kernel(float *out, const float *in, int n) {}

// A CPU output written by a kernel.
torch::Tensor copy_cpu_out(torch::Tensor x) {
  const at::cuda::OptionalCUDAGuard device_guard(device_of(x));
  auto out = torch::empty({x.numel()}, torch::kFloat);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'out' is allocated on the CPU and written by a kernel: allocate it on the device of the op's inputs (x.options()) [extension-output-device]
  // CHECK-FIXES: auto out = torch::empty({x.numel()}, x.options().dtype(torch::kFloat));
  copy_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      out.data_ptr<float>(), x.data_ptr<float>(), x.numel());
  return out;
}

// torch::kCUDA without a guard: the current device, not x's
// (pytorch/pytorch#130519).
torch::Tensor copy_current_device(torch::Tensor x) {
  auto out = torch::zeros({x.numel()},
                          torch::dtype(torch::kFloat).device(torch::kCUDA));
  // CHECK-MESSAGES: :[[@LINE-2]]:14: warning: 'out' is allocated on the current CUDA device and written by a kernel
  copy_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      out.data_ptr<float>(), x.data_ptr<float>(), x.numel());
  return out;
}

// Returned, not written: still on the CPU; allocated after its declaration.
torch::Tensor count_positive(torch::Tensor x) {
  const at::cuda::OptionalCUDAGuard device_guard(device_of(x));
  torch::Tensor counts;
  counts = at::zeros({1}, x.scalar_type());
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'counts' is allocated on the CPU and returned
  // CHECK-FIXES: counts = at::zeros({1}, x.options().dtype(x.scalar_type()));
  copy_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      x.data_ptr<float>(), x.data_ptr<float>(), x.numel());
  return counts;
}

// Negatives.

torch::Tensor copy_options(torch::Tensor x) {
  const at::cuda::OptionalCUDAGuard device_guard(device_of(x));
  auto out = torch::empty({x.numel()}, x.options());
  auto out2 = torch::empty_like(x);
  auto out3 = torch::zeros({x.numel()}, torch::dtype(torch::kFloat).device(x.device()));
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "copy", [&] {
    copy_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        out.data_ptr<float>(), out2.data_ptr<float>(), x.numel());
    copy_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        out3.data_ptr<float>(), x.data_ptr<float>(), x.numel());
  });
  return out;
}

// torch::kCUDA under a guard: the current device is x's.
torch::Tensor copy_guarded_cuda(torch::Tensor x) {
  const at::cuda::OptionalCUDAGuard device_guard(device_of(x));
  auto out = torch::empty({x.numel()}, torch::dtype(torch::kFloat).device(torch::kCUDA));
  copy_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      out.data_ptr<float>(), x.data_ptr<float>(), x.numel());
  return out;
}

// A CPU op: its CPU output is right.
torch::Tensor sizes_of(torch::Tensor x) {
  auto sizes = torch::empty({x.dim()}, torch::kLong);
  return sizes;
}

// A device dispatch: the CPU branch returns a CPU tensor.
torch::Tensor copy_any(torch::Tensor x) {
  if (!x.is_cuda()) {
    auto out = torch::zeros({x.numel()}, torch::kFloat);
    return out;
  }
  return copy_options(x);
}

// A host-side scratch tensor neither written by a kernel nor returned.
torch::Tensor copy_with_host_scratch(torch::Tensor x) {
  const at::cuda::OptionalCUDAGuard device_guard(device_of(x));
  auto scratch = torch::zeros({4}, torch::kInt);
  auto out = torch::empty_like(x);
  copy_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      out.data_ptr<float>(), x.data_ptr<float>(), scratch.size(0));
  return out;
}
