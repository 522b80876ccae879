#include <torch/torch.h>

// The CUDA runtime's allocators, declared as cuda_runtime_api.h does.
extern "C" int cudaMalloc(void **devPtr, size_t size);
extern "C" int cudaMallocHost(void **ptr, size_t size);
extern "C" int cudaMallocManaged(void **devPtr, size_t size, unsigned flags = 1);

torch::Device chooseDevice() {
  return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
}

void hostMemoryOnDevice(torch::Device device) {
  std::vector<float> pixels(3 * 32 * 32);
  auto a = torch::from_blob(pixels.data(), {3, 32, 32}, torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'from_blob' wraps a host container's data as a tensor on 'torch::kCUDA': it trusts the options' device, so GPU kernels would read host memory as device memory; wrap it on the CPU and move the tensor with '.to()' [device-from-blob]
  auto b = torch::from_blob(pixels.data(), {3, 32, 32},
                            torch::TensorOptions().device(device));
  // CHECK-MESSAGES: :[[@LINE-2]]:12: warning: 'from_blob' wraps a host container's data as a tensor on 'device' (which may be a GPU): {{.*}} [device-from-blob]
  float stack[16] = {};
  auto c = torch::from_blob(stack, {16}, torch::device(torch::kCUDA));
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'from_blob' wraps an array on the stack as a tensor on 'torch::kCUDA': {{.*}} [device-from-blob]
  float *heap = new float[16];
  auto d = torch::from_blob(heap, {16}, torch::TensorOptions(torch::kCUDA));
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'from_blob' wraps memory from 'new' as a tensor on 'torch::kCUDA': {{.*}} [device-from-blob]
  auto cpuTensor = torch::rand({16});
  auto e = torch::from_blob(cpuTensor.data_ptr<float>(), {16},
                            torch::dtype(torch::kFloat).device(device));
  // CHECK-MESSAGES: :[[@LINE-2]]:12: warning: 'from_blob' wraps a CPU tensor's memory as a tensor on 'device' (which may be a GPU): {{.*}} [device-from-blob]
  std::array<double, 4> weights{};
  auto f = torch::from_blob(&weights[0], {4}, torch::TensorOptions().dtype(torch::kDouble).device(torch::kCUDA, 0));
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'from_blob' wraps a host container's data as a tensor on 'torch::kCUDA':{{.*}} [device-from-blob]
}

void deviceMemoryOnHost(torch::Device device) {
  float *buffer = nullptr;
  cudaMalloc((void **)&buffer, 16 * sizeof(float));
  auto a = torch::from_blob(buffer, {16});
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'from_blob' wraps memory from 'cudaMalloc' without a device: LibTorch takes it for CPU memory and the host reads device memory; pass the device in the options [device-from-blob]
  void *raw = nullptr;
  cudaMalloc(&raw, 64);
  auto b = torch::from_blob(raw, {16}, torch::kFloat);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'from_blob' wraps memory from 'cudaMalloc' without a device{{.*}} [device-from-blob]
  auto onGpu = torch::rand({16}, torch::kCUDA);
  auto c = torch::from_blob(onGpu.data_ptr(), {16});
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'from_blob' wraps the memory of a tensor on 'torch::kCUDA' without a device{{.*}} [device-from-blob]
  auto maybe = torch::rand({16}, torch::device(device));
  auto d = torch::from_blob(maybe.data_ptr<float>(), {16}, torch::TensorOptions(torch::kCPU));
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'from_blob' wraps the memory of a tensor on 'device' (which may be a GPU) without a device: LibTorch takes it for CPU memory and the host reads device memory when that device is a GPU; pass the device in the options [device-from-blob]
}

// Negatives.


void correctWraps(torch::Device device, float *fromCaller) {
  std::vector<float> pixels(16);
  auto a = torch::from_blob(pixels.data(), {16});                    // host on CPU
  auto b = torch::from_blob(pixels.data(), {16}, torch::kFloat).to(device);
  float stack[4] = {};
  auto c = torch::from_blob(stack, {4}, torch::TensorOptions(torch::kCPU));
  float *buffer = nullptr;
  cudaMalloc((void **)&buffer, 16 * sizeof(float));
  auto d = torch::from_blob(buffer, {16}, torch::device(torch::kCUDA)); // device on device
  auto e = torch::from_blob(fromCaller, {16}, torch::kCUDA);         // origin unknown
  auto f = torch::from_blob(fromCaller, {16});
  float *pinned = nullptr;
  cudaMallocHost((void **)&pinned, 64);
  auto g = torch::from_blob(pinned, {16});                           // pinned host memory
  auto onGpu = torch::rand({16}, torch::kCUDA);
  auto h = torch::from_blob(onGpu.data_ptr(), {16}, onGpu.options()); // same device
  float *managed = nullptr;
  cudaMallocManaged((void **)&managed, 64);                                   // both sides
  auto i = torch::from_blob(managed, {16}, torch::kCUDA);
  auto j = torch::from_blob(managed, {16});
  auto cpuTensor = torch::rand({16});
  auto k = torch::from_blob(cpuTensor.data_ptr(), {16});
  auto l = torch::from_blob(pixels.data(), {16}, torch::device(torch::kCPU));
}
