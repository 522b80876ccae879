// Camera pipeline: frames arrive in host buffers owned by the capture library and
// are wrapped as tensors without copying where possible.
#include <torch/torch.h>

#include <cstdint>
#include <cstdio>
#include <vector>

struct Frame {
  std::vector<uint8_t> rgb;  // H*W*3, host memory
  int height = 480, width = 640;
};

static Frame capture(int i) {
  Frame f;
  f.rgb.assign(static_cast<size_t>(f.height) * f.width * 3, static_cast<uint8_t>(i % 255));
  return f;
}

// Wraps the frame for the model on `device`.
static torch::Tensor as_tensor(Frame& f, torch::Device device) {
  return torch::from_blob(f.rgb.data(), {f.height, f.width, 3},
                          torch::TensorOptions().dtype(torch::kUInt8).device(device));  // BUG(device-from-blob): the buffer is host memory, but main() passes the model's device, which may be a GPU: the options declare a host pointer to be device memory
}

// The safe version: wrap as host memory, then copy.
static torch::Tensor to_model_input(Frame& f, torch::Device device) {
  auto host = torch::from_blob(f.rgb.data(), {f.height, f.width, 3}, torch::kUInt8);
  return host.to(device).permute({2, 0, 1}).to(torch::kFloat).div(255).unsqueeze(0);
}

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto net = torch::nn::Sequential(torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 8, 3).stride(2)), torch::nn::ReLU(),
                                   torch::nn::AdaptiveAvgPool2d(1), torch::nn::Flatten(), torch::nn::Linear(8, 2));
  net->to(device);
  net->eval();
  torch::NoGradGuard no_grad;

  std::vector<float> lut(256);
  for (int i = 0; i < 256; ++i) lut[i] = static_cast<float>(i) / 255.f;
  auto lut_dev = torch::from_blob(lut.data(), {256}, torch::TensorOptions().dtype(torch::kFloat).device(torch::kCUDA));  // BUG(device-from-blob): a std::vector's host memory declared to be CUDA memory (wrong whenever a GPU is present; throws on CPU-only builds)
  auto lut_ok = torch::from_blob(lut.data(), {256}, torch::kFloat).clone().to(device);

  for (int i = 0; i < 30; ++i) {
    Frame f = capture(i);
    auto x = to_model_input(f, device);
    auto logits = net->forward(x);
    auto raw = as_tensor(f, device);
    auto mean_level = lut_ok.index_select(0, raw.flatten().to(device, torch::kLong)).mean();
    if (i % 10 == 0)
      std::printf("frame %d class %lld mean level %.3f\n", i, static_cast<long long>(logits.argmax(1).item<int64_t>()),
                  mean_level.item<float>());
  }
  std::printf("lut %lld entries\n", static_cast<long long>(lut_dev.numel()));
}
