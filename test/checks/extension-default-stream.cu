// Kernels and memory calls of extension ops on the default stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>

__global__ void relu_kernel(float *x, int n) {}

void relu_(torch::Tensor x) {
  const at::cuda::OptionalCUDAGuard device_guard(device_of(x));
  relu_kernel<<<1, 256>>>(x.data_ptr<float>(), x.numel());
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launched on the default stream, not PyTorch's current stream: it races with work the caller put on a side stream; pass at::cuda::getCurrentCUDAStream() [extension-default-stream]
  // CHECK-FIXES: relu_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(x.data_ptr<float>(), x.numel());
  relu_kernel<<<1, 256, 128>>>(x.data_ptr<float>(), x.numel());
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launched on the default stream
  // CHECK-FIXES: relu_kernel<<<1, 256, 128, at::cuda::getCurrentCUDAStream()>>>(x.data_ptr<float>(), x.numel());
  relu_kernel<<<1, 256, 0, 0>>>(x.data_ptr<float>(), x.numel());
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launched on the default stream
  // CHECK-FIXES: relu_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(x.data_ptr<float>(), x.numel());
  relu_kernel<<<1, 256, 0, cudaStreamLegacy>>>(x.data_ptr<float>(), x.numel());
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launched on the default stream
}

// A launcher of raw pointers: the stream is the op's all the same.
void launch_relu(float *x, int n) {
  relu_kernel<<<1, 256, 0, nullptr>>>(x, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: kernel launched on the default stream
  // CHECK-FIXES: relu_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(x, n);
}

torch::Tensor copy_host(torch::Tensor x, torch::Tensor out) {
  cudaMemcpy(out.data_ptr<float>(), x.data_ptr<float>(), x.nbytes(),
             cudaMemcpyDeviceToDevice);
  // CHECK-MESSAGES: :[[@LINE-2]]:3: warning: 'cudaMemcpy' in an op runs on the legacy default stream, synchronising with all work and not ordered with PyTorch's current stream; use the Async form on at::cuda::getCurrentCUDAStream() [extension-default-stream]
  cudaMemset(out.data_ptr<float>(), 0, out.nbytes());
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaMemset' in an op runs on the legacy default stream
  cudaStreamSynchronize(0);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'cudaStreamSynchronize' in an op runs on the legacy default stream
  return out;
}

// Negatives: PyTorch's current stream, directly or through a variable; the
// Async calls on it.
void relu_current(torch::Tensor x) {
  const at::cuda::OptionalCUDAGuard device_guard(device_of(x));
  relu_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(x.data_ptr<float>(), x.numel());
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "relu", [&] {
    relu_kernel<<<1, 256, 0, stream>>>(x.data_ptr<float>(), x.numel());
  });
  auto current = at::cuda::getCurrentCUDAStream();
  relu_kernel<<<1, 256, 0, current.stream()>>>(x.data_ptr<float>(), x.numel());
  cudaMemcpyAsync(x.data_ptr<float>(), x.data_ptr<float>(), x.nbytes(),
                  cudaMemcpyDeviceToDevice, stream);
  cudaStreamSynchronize(stream);
}
