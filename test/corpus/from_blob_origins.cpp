// Wrapping existing memory with from_blob: the options must say where the memory lives.
#include <torch/torch.h>

#include <array>
#include <cstddef>
#include <vector>

#if __has_include(<cuda_runtime_api.h>)
#include <cuda_runtime_api.h>
#else
extern "C" int cudaMalloc(void** ptr, size_t size);
extern "C" int cudaFree(void* ptr);
#endif

torch::Tensor wrap_device_buffer_buggy(int64_t n) {
  float* dev_ptr = nullptr;
  cudaMalloc(reinterpret_cast<void**>(&dev_ptr), n * sizeof(float));
  return torch::from_blob(dev_ptr, {n}, torch::kFloat32);  // BUG(device-from-blob): cudaMalloc'd memory wrapped as a CPU tensor
}

torch::Tensor wrap_device_buffer(int64_t n) {
  float* dev_ptr = nullptr;
  cudaMalloc(reinterpret_cast<void**>(&dev_ptr), n * sizeof(float));
  return torch::from_blob(dev_ptr, {n}, [](void* p) { cudaFree(p); },
                          torch::TensorOptions().dtype(torch::kFloat32).device(torch::kCUDA));
}

torch::Tensor upload_buggy(std::vector<float>& host) {
  return torch::from_blob(host.data(), {static_cast<int64_t>(host.size())},  // BUG(device-from-blob): std::vector memory is host memory, not CUDA
                          torch::TensorOptions().device(torch::kCUDA));
}

torch::Tensor upload(std::vector<float>& host, torch::Device device) {
  return torch::from_blob(host.data(), {static_cast<int64_t>(host.size())}).to(device);
}

torch::Tensor view_of_tensor(const torch::Tensor& t) {
  return torch::from_blob(t.data_ptr(), t.sizes(), t.options());
}

torch::Tensor wrap_external(void* ptr, int64_t n) {
  // Origin unknown (a caller's pointer): nothing to say.
  return torch::from_blob(ptr, {n}, torch::TensorOptions().dtype(torch::kFloat32).device(torch::kCUDA));
}

int main() {
  if (!torch::cuda::is_available()) return 0;
  std::vector<float> host(16, 1.f);
  std::array<float, 4> coeffs = {1.f, 2.f, 3.f, 4.f};
  float stack_buf[8] = {0};

  auto a = wrap_device_buffer_buggy(16);
  auto b = wrap_device_buffer(16);
  auto c = upload_buggy(host);
  auto d = upload(host, torch::kCUDA);
  auto k = torch::from_blob(coeffs.data(), {4}).clone();
  auto s = torch::from_blob(stack_buf, {8}, torch::TensorOptions().device(torch::kCUDA));  // BUG(device-from-blob): stack array wrapped as CUDA memory
  auto gpu = torch::randn({4}, torch::kCUDA);
  auto e = torch::from_blob(gpu.data_ptr(), gpu.sizes(), torch::kFloat32);  // BUG(device-from-blob): gpu's memory is on CUDA, wrapped without a CUDA device
  auto f = view_of_tensor(gpu);
  auto g = wrap_external(b.data_ptr(), 16);
  return static_cast<int>(a.numel() + c.numel() + d.numel() + k.numel() + s.numel() + e.numel() +
                          f.numel() + g.numel());
}
