// A plain (non-Module) preprocessing class: members are moved in the constructor.
#include <torch/torch.h>

#include <iostream>
#include <vector>

class Normalizer {
 public:
  Normalizer(const std::vector<double>& mean, const std::vector<double>& stddev, torch::Device device)
      : mean_(torch::tensor(mean).view({1, -1, 1, 1}).to(device)),
        std_(torch::tensor(stddev).view({1, -1, 1, 1}).to(device)),
        device_(device) {}

  torch::Tensor operator()(const torch::Tensor& images) const {
    return (images.to(device_).to(torch::kFloat).div(255.0) - mean_) / std_;
  }

 private:
  torch::Tensor mean_;
  torch::Tensor std_;
  torch::Device device_;
};

class Resizer {
 public:
  explicit Resizer(int64_t size) : size_(size) {}
  torch::Tensor operator()(const torch::Tensor& x) const {
    namespace F = torch::nn::functional;
    return F::interpolate(x, F::InterpolateFuncOptions()
                                 .size(std::vector<int64_t>{size_, size_})
                                 .mode(torch::kBilinear)
                                 .align_corners(false));
  }

 private:
  int64_t size_;
};

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  Normalizer norm({0.485, 0.456, 0.406}, {0.229, 0.224, 0.225}, device);
  Resizer resize(224);
  auto model = torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 8, 3));
  model->to(device);
  torch::NoGradGuard no_grad;
  auto raw = torch::randint(0, 256, {2, 3, 256, 256}, torch::kByte);
  auto x = resize(norm(raw));
  auto y = model->forward(x);
  std::cout << y.sizes() << '\n';
}
