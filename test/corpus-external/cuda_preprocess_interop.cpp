// Interop with a hand-written CUDA preprocessing library: its buffers are wrapped as tensors without copies.
#include <torch/torch.h>

#include <cstddef>
#include <iostream>
#include <vector>

// From cuda_runtime_api.h; declared here so the file builds without the CUDA toolkit headers.
extern "C" {
typedef int cudaError_t;
cudaError_t cudaMalloc(void** devPtr, size_t size);
cudaError_t cudaFree(void* devPtr);
cudaError_t cudaMallocHost(void** ptr, size_t size);
cudaError_t cudaFreeHost(void* ptr);
// The preprocessing library: resizes and normalises a batch of JPEG-decoded images on the GPU.
void prep_resize_normalize(const unsigned char* const* images, int count, int out_h, int out_w, float* out_device);
}

class GpuPreprocessor {
 public:
  GpuPreprocessor(int batch, int h, int w) : batch_(batch), h_(h), w_(w) {
    cudaMalloc(reinterpret_cast<void**>(&planar_), sizeof(float) * batch * 3 * h * w);
    cudaMallocHost(reinterpret_cast<void**>(&host_stats_), sizeof(float) * 6);
  }
  ~GpuPreprocessor() {
    cudaFree(planar_);
    cudaFreeHost(host_stats_);
  }

  // The batch as a [B, 3, H, W] tensor over the library's device buffer.
  torch::Tensor run(const unsigned char* const* images) {
    prep_resize_normalize(images, batch_, h_, w_, planar_);
    return torch::from_blob(planar_, {batch_, 3, h_, w_});  // BUG(device-from-blob): cudaMalloc memory wrapped without a device: LibTorch takes it for host memory
  }

  torch::Tensor run_correct(const unsigned char* const* images) {
    prep_resize_normalize(images, batch_, h_, w_, planar_);
    return torch::from_blob(planar_, {batch_, 3, h_, w_}, torch::TensorOptions().dtype(torch::kFloat).device(torch::kCUDA));
  }

  // Per-channel mean/std from the host-side calibration step.
  torch::Tensor channel_stats() {
    calib_ = {0.45f, 0.45f, 0.45f, 0.225f, 0.225f, 0.225f};
    return torch::from_blob(calib_.data(), {2, 3}, torch::TensorOptions().device(torch::kCUDA));  // BUG(device-from-blob): a std::vector's host memory labelled as a CUDA tensor
  }

  torch::Tensor channel_stats_correct() {
    for (int i = 0; i < 6; ++i) host_stats_[i] = i < 3 ? 0.45f : 0.225f;
    return torch::from_blob(host_stats_, {2, 3}).to(torch::kCUDA, /*non_blocking=*/true);
  }

 private:
  int batch_, h_, w_;
  float* planar_ = nullptr;
  float* host_stats_ = nullptr;  // pinned
  std::vector<float> calib_;
};

int main() {
  if (!torch::cuda::is_available()) {
    std::cerr << "this tool needs a GPU\n";
    return 1;
  }
  torch::Device device(torch::kCUDA);
  auto backbone = torch::nn::Sequential(torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 8, 3).padding(1)),
                                        torch::nn::AdaptiveAvgPool2d(1), torch::nn::Flatten());
  backbone->to(device);
  GpuPreprocessor prep(8, 224, 224);
  std::vector<const unsigned char*> images(8, nullptr);
  torch::NoGradGuard no_grad;
  auto stats = prep.channel_stats_correct();
  auto x = (prep.run_correct(images.data()) - stats[0].view({1, 3, 1, 1})) / stats[1].view({1, 3, 1, 1});
  auto y = backbone->forward(x);
  auto raw = prep.run(images.data());
  auto s2 = prep.channel_stats();
  std::cout << y.sizes() << " " << raw.sizes() << " " << s2.sizes() << "\n";
}
