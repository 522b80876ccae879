// Tensors from Python whose memory reaches a kernel with no CUDA check.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

#define CHECK_CUDA(x) TORCH_CHECK(x.device().is_cuda(), #x " must be a CUDA tensor")
#define CHECK_CONTIGUOUS(x) TORCH_CHECK(x.is_contiguous(), #x " must be contiguous")
#define CHECK_INPUT(x) CHECK_CUDA(x); CHECK_CONTIGUOUS(x)

__global__ void add_kernel(float *out, const float *a, const float *b, int n) {}

// Neither input is checked: a CPU tensor becomes a host pointer on the GPU.
torch::Tensor add(torch::Tensor a, torch::Tensor b) {
  const at::cuda::OptionalCUDAGuard device_guard(device_of(a));
  auto out = torch::empty_like(a);
  add_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      out.data_ptr<float>(), a.data_ptr<float>(), b.data_ptr<float>(), a.numel());
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: the memory of 'a' reaches a kernel with no check that 'a' is on a CUDA device: a CPU tensor from Python becomes a host pointer read on the GPU; add TORCH_CHECK(a.is_cuda(), ...) [extension-unchecked-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:51: warning: the memory of 'b' reaches a kernel with no check that 'b' is on a CUDA device
  return out;
}

// One checked, one not; through a local pointer and a launcher of raw
// pointers.
void launch_add(float *out, const float *a, const float *b, int n) {
  add_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(out, a, b, n);
}

torch::Tensor add_half_checked(torch::Tensor a, torch::Tensor b) {
  CHECK_INPUT(a);
  const at::cuda::OptionalCUDAGuard device_guard(device_of(a));
  auto out = torch::empty_like(a);
  const float *pb = b.data_ptr<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: the memory of 'b' reaches a kernel
  launch_add(out.data_ptr<float>(), a.data_ptr<float>(), pb, a.numel());
  return out;
}

// Negatives.

// CHECK_INPUT-style macros, and a contiguous copy of a checked input.
torch::Tensor add_checked(torch::Tensor a, torch::Tensor b) {
  CHECK_INPUT(a);
  TORCH_CHECK(b.is_cuda(), "b must be a CUDA tensor");
  const at::cuda::OptionalCUDAGuard device_guard(device_of(a));
  auto a_contig = a.contiguous();
  auto out = torch::empty_like(a);
  AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "add", [&] {
    add_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        out.data_ptr<float>(), a_contig.data_ptr<float>(), b.data_ptr<float>(),
        a.numel());
  });
  return out;
}

// The checks in the binding, the pointers in the launcher it calls.
torch::Tensor add_cuda(torch::Tensor a, torch::Tensor b) {
  const at::cuda::OptionalCUDAGuard device_guard(device_of(a));
  auto out = torch::empty_like(a);
  add_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      out.data_ptr<float>(), a.data_ptr<float>(), b.data_ptr<float>(), a.numel());
  return out;
}

torch::Tensor add_binding(torch::Tensor a, torch::Tensor b) {
  CHECK_CUDA(a);
  CHECK_CUDA(b);
  return add_cuda(a, b);
}

// Dispatch on the device, with a CPU branch.
torch::Tensor add_any(torch::Tensor a, torch::Tensor b) {
  if (a.is_cuda() && b.is_cuda())
    return add_cuda(a, b);
  return a + b;
}

// Called from another file, which may check: not known here.
torch::Tensor add_exported(torch::Tensor a, torch::Tensor b) {
  const at::cuda::OptionalCUDAGuard device_guard(device_of(a));
  auto out = torch::empty_like(a);
  add_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      out.data_ptr<float>(), a.data_ptr<float>(), b.data_ptr<float>(), a.numel());
  return out;
}

// A CPU op reading its input's memory on the host.
float first(torch::Tensor a) { return a.data_ptr<float>()[0]; }

// A kernel of the CUDA dispatch key: the dispatcher calls it for CUDA
// inputs.
torch::Tensor add_impl(const torch::Tensor &a, const torch::Tensor &b) {
  const at::cuda::OptionalCUDAGuard device_guard(device_of(a));
  auto out = torch::empty_like(a);
  add_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      out.data_ptr<float>(), a.data_ptr<float>(), b.data_ptr<float>(), a.numel());
  return out;
}

TORCH_LIBRARY_IMPL(fixture, CUDA, m) { m.impl("add", &add_impl); }

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("add", &add);
  m.def("add_half_checked", &add_half_checked);
  m.def("add_checked", &add_checked);
  m.def("add_binding", &add_binding);
  m.def("add_any", &add_any);
  m.def("first", &first);
}
