// A module that keeps a lookup table outside its buffers and moves it in its own to() override.
#include <torch/torch.h>

#include <iostream>

class ColorJitterImpl : public torch::nn::Module {
 public:
  explicit ColorJitterImpl(int64_t bins) {
    lut_ = torch::linspace(0, 1, bins).pow(0.8);
    gain_ = register_parameter("gain", torch::ones({1, 3, 1, 1}));
    proj_ = register_module("proj", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 3, 1)));
  }

  using torch::nn::Module::to;
  void to(torch::Device device, bool non_blocking = false) override {
    torch::nn::Module::to(device, non_blocking);
    lut_ = lut_.to(device, non_blocking);
  }
  void to(torch::Device device, torch::Dtype dtype, bool non_blocking = false) override {
    torch::nn::Module::to(device, dtype, non_blocking);
    lut_ = lut_.to(device, dtype, non_blocking);
  }

  torch::Tensor forward(const torch::Tensor& x) {
    auto idx = (x.clamp(0, 1) * (lut_.size(0) - 1)).to(torch::kLong);
    auto mapped = lut_.index({idx});
    return proj_->forward(mapped * gain_);
  }

 private:
  torch::Tensor lut_;  // not registered, but the to() overrides move it
  torch::Tensor gain_;
  torch::nn::Conv2d proj_{nullptr};
};
TORCH_MODULE(ColorJitter);

struct StatsTracker : torch::nn::Module {
  StatsTracker() { mean = register_buffer("mean", torch::zeros({3})); }
  void update(const torch::Tensor& batch) { mean.mul_(0.9).add_(batch.mean({0, 2, 3}) * 0.1); }
  torch::Tensor mean;
};

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  ColorJitter jitter(256);
  jitter->to(device);
  auto stats = std::make_shared<StatsTracker>();
  stats->to(device);
  auto images = torch::rand({4, 3, 16, 16}).to(device);
  auto out = jitter->forward(images);
  stats->update(out.detach());
  std::cout << out.sizes() << ' ' << stats->mean << '\n';
}
