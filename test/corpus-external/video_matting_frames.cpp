// Background matting over a decoded video stream: raw RGB frames in, alpha mattes out to an encoder.
#include <torch/torch.h>

#include <cstdint>
#include <cstring>
#include <iostream>
#include <vector>

struct Frame {
  int64_t width, height;
  std::vector<uint8_t> rgb;  // interleaved, as delivered by the decoder
};

struct MatteNetImpl : torch::nn::Module {
  MatteNetImpl()
      : body(register_module("body", torch::nn::Sequential(
                                         torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).padding(1)), torch::nn::ReLU(),
                                         torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 16, 3).padding(1)), torch::nn::ReLU(),
                                         torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 1, 1)), torch::nn::Sigmoid()))) {}
  torch::Tensor forward(const torch::Tensor& x) { return body->forward(x); }
  torch::nn::Sequential body;
};
TORCH_MODULE(MatteNet);

class MattingPipeline {
 public:
  explicit MattingPipeline(torch::Device device) : device_(device) {
    net_->to(device_);
    net_->eval();
  }

  // Returns the alpha matte as 8-bit, H*W, for the video encoder.
  std::vector<uint8_t> process(Frame& frame) {
    torch::NoGradGuard no_grad;
    auto opts = torch::TensorOptions().dtype(torch::kByte).device(device_);
    auto rgb = torch::from_blob(frame.rgb.data(), {frame.height, frame.width, 3}, opts);  // BUG(device-from-blob): the decoder's host buffer is declared to be device memory
    auto x = rgb.permute({2, 0, 1}).unsqueeze(0).to(torch::kFloat).div(255);
    auto alpha = net_->forward(x)[0][0];
    auto alpha8 = alpha.mul(255).round().to(torch::kByte).contiguous();
    auto view = torch::from_blob(alpha8.data_ptr<uint8_t>(), {frame.height * frame.width}, torch::kByte);  // BUG(device-from-blob): alpha8 may be in GPU memory; wrapped as a CPU tensor without a device
    std::vector<uint8_t> out(frame.height * frame.width);
    std::memcpy(out.data(), view.data_ptr<uint8_t>(), out.size());
    return out;
  }

  // Same result, done the safe way: wrap on the CPU, move, and copy back explicitly.
  std::vector<uint8_t> process_safe(Frame& frame) {
    torch::NoGradGuard no_grad;
    auto rgb = torch::from_blob(frame.rgb.data(), {frame.height, frame.width, 3}, torch::kByte).to(device_);
    auto x = rgb.permute({2, 0, 1}).unsqueeze(0).to(torch::kFloat).div(255);
    auto alpha8 = net_->forward(x)[0][0].mul(255).round().to(torch::kByte).cpu().contiguous();
    std::vector<uint8_t> out(alpha8.numel());
    std::memcpy(out.data(), alpha8.data_ptr<uint8_t>(), out.size());
    return out;
  }

 private:
  torch::Device device_;
  MatteNet net_;
};

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  MattingPipeline pipeline(device);
  Frame frame{320, 180, std::vector<uint8_t>(320 * 180 * 3, 90)};
  size_t total = 0;
  for (int i = 0; i < 30; ++i) {
    auto a = pipeline.process_safe(frame);
    auto b = pipeline.process(frame);
    total += a.size() + b.size();
  }
  std::cout << total << " bytes of mattes\n";
}
