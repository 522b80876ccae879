// Kernel launches of extension ops without a device guard.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

__global__ void scale_kernel(float *out, const float *in, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * s;
}

// The tutorial's op: no guard, so it launches on the current device.
torch::Tensor scale(torch::Tensor x, double s) {
  auto out = torch::empty_like(x);
  const int n = x.numel();
  scale_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      out.data_ptr<float>(), x.data_ptr<float>(), s, n);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: kernel launched with no device guard in its op: it runs on the current CUDA device, which need not be the device of the op's tensors [extension-missing-device-guard]
  return out;
}
// CHECK-FIXES: torch::Tensor scale(torch::Tensor x, double s) {
// CHECK-FIXES-NEXT: const at::cuda::OptionalCUDAGuard device_guard(device_of(x));

// Inside AT_DISPATCH's lambda: reported at the launch.
torch::Tensor scale_dispatched(torch::Tensor x) {
  auto out = torch::empty_like(x);
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "scale", [&] {
    scale_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        out.data_ptr<float>(), x.data_ptr<float>(), 2.0f, x.numel());
  });
  // CHECK-MESSAGES: :[[@LINE-3]]:5: warning: kernel launched with no device guard in its op
  return out;
}
// CHECK-FIXES: torch::Tensor scale_dispatched(torch::Tensor x) {
// CHECK-FIXES-NEXT: const at::cuda::OptionalCUDAGuard device_guard(device_of(x));

// A launcher of raw pointers called from an unguarded op: reported in the
// launcher, the op is fixed by hand.
void launch_scale(float *out, const float *in, int n) {
  scale_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(out, in, 1.0f, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launched with no device guard in its op
}

torch::Tensor scale_unguarded_binding(torch::Tensor x) {
  auto out = torch::empty_like(x);
  launch_scale(out.data_ptr<float>(), x.data_ptr<float>(), x.numel());
  return out;
}

// Negatives.

// The guard at the top of the op.
torch::Tensor scale_guarded(torch::Tensor x) {
  const at::cuda::OptionalCUDAGuard device_guard(device_of(x));
  auto out = torch::empty_like(x);
  scale_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      out.data_ptr<float>(), x.data_ptr<float>(), 1.0f, x.numel());
  return out;
}

// c10::cuda::CUDAGuard and at::DeviceGuard count too.
torch::Tensor scale_cuda_guard(torch::Tensor x) {
  c10::cuda::CUDAGuard device_guard(x.device());
  auto out = torch::empty_like(x);
  scale_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      out.data_ptr<float>(), x.data_ptr<float>(), 1.0f, x.numel());
  return out;
}

torch::Tensor scale_device_guard(torch::Tensor x) {
  at::DeviceGuard device_guard(x.device());
  auto out = torch::empty_like(x);
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "scale", [&] {
    scale_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        out.data_ptr<float>(), x.data_ptr<float>(), 1.0f, x.numel());
  });
  return out;
}

// The guard taken in the binding, the launch in a launcher it calls.
void launch_guarded(float *out, const float *in, int n) {
  scale_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(out, in, 1.0f, n);
}

torch::Tensor scale_binding(torch::Tensor x) {
  at::cuda::OptionalCUDAGuard device_guard(device_of(x));
  auto out = torch::empty_like(x);
  launch_guarded(out.data_ptr<float>(), x.data_ptr<float>(), x.numel());
  return out;
}

// A launcher of raw pointers no function here calls: its op is elsewhere.
void launch_elsewhere(float *out, const float *in, int n) {
  scale_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(out, in, 1.0f, n);
}

// Called through a pointer of a dispatch table (mmcv's REGISTER_DEVICE_IMPL):
// the dispatcher, in another file, may take the guard.
torch::Tensor scale_impl(torch::Tensor x) {
  auto out = torch::empty_like(x);
  scale_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      out.data_ptr<float>(), x.data_ptr<float>(), 1.0f, x.numel());
  return out;
}
using ScaleFn = torch::Tensor (*)(torch::Tensor);
static ScaleFn scale_table[] = {&scale_impl};

// A CPU op: no kernel.
torch::Tensor scale_cpu(torch::Tensor x) { return x * 2; }

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("scale", &scale);
  m.def("scale_guarded", &scale_guarded);
  m.def("scale_binding", &scale_binding);
  m.def("scale_cpu", &scale_cpu);
}
