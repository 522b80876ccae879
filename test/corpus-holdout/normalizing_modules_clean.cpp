// Input-normalisation and calibration modules written the careful way: statistics
// are buffers, an extra tensor is moved by an overridden to(), and a class template
// registers its members in an out-of-line constructor. No known bug in this file.
#include <torch/torch.h>

#include <cmath>
#include <cstdio>

struct ImageNormalizerImpl : torch::nn::Module {
  ImageNormalizerImpl() {
    mean = register_buffer("mean", torch::tensor({0.485f, 0.456f, 0.406f}).view({1, 3, 1, 1}));
    stdev = register_buffer("stdev", torch::tensor({0.229f, 0.224f, 0.225f}).view({1, 3, 1, 1}));
  }
  torch::Tensor forward(const torch::Tensor& x) { return (x - mean) / stdev; }
  torch::Tensor mean, stdev;
};
TORCH_MODULE(ImageNormalizer);

// Keeps a lookup table outside the state dict (it is derived, not learned), and moves
// it itself whenever the module moves.
struct GammaLutImpl : torch::nn::Module {
  explicit GammaLutImpl(double gamma) : lut_(torch::linspace(0, 1, 256).pow(gamma)) {}
  void to(torch::Device device, torch::Dtype dtype, bool non_blocking = false) override {
    torch::nn::Module::to(device, dtype, non_blocking);
    lut_ = lut_.to(device, dtype, non_blocking);
  }
  void to(torch::Device device, bool non_blocking = false) override {
    torch::nn::Module::to(device, non_blocking);
    lut_ = lut_.to(device, non_blocking);
  }
  torch::Tensor forward(const torch::Tensor& x) {  // x in [0, 1]
    auto idx = (x * 255).round().clamp(0, 255).to(torch::kLong);
    return lut_.index({idx});
  }
  torch::Tensor lut_;
};
TORCH_MODULE(GammaLut);

template <typename Scalar>
struct TemperatureScalerImpl : torch::nn::Module {
  explicit TemperatureScalerImpl(Scalar init);
  torch::Tensor forward(const torch::Tensor& logits) { return logits / log_t.exp() + bias; }
  torch::Tensor log_t, bias;
};

template <typename Scalar>
TemperatureScalerImpl<Scalar>::TemperatureScalerImpl(Scalar init) {
  log_t = this->register_parameter("log_t", torch::full({1}, std::log(static_cast<double>(init))));
  bias = this->register_buffer("bias", torch::zeros({10}));
}

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  ImageNormalizer norm;
  GammaLut gamma(1.0 / 2.2);
  auto scaler = std::make_shared<TemperatureScalerImpl<float>>(1.5f);
  auto classifier = torch::nn::Sequential(torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).stride(2)), torch::nn::ReLU(),
                                          torch::nn::AdaptiveAvgPool2d(1), torch::nn::Flatten(), torch::nn::Linear(16, 10));
  norm->to(device);
  gamma->to(device);
  scaler->to(device);
  classifier->to(device);

  torch::optim::LBFGS calib(std::vector<torch::Tensor>{scaler->log_t}, torch::optim::LBFGSOptions(0.1).max_iter(50));
  const auto opts = torch::TensorOptions().device(device);
  auto images = torch::rand({256, 3, 64, 64}, opts);
  auto labels = torch::randint(0, 10, {256}, opts.dtype(torch::kLong));
  torch::Tensor logits;
  {
    torch::NoGradGuard no_grad;
    classifier->eval();
    logits = classifier->forward(norm->forward(gamma->forward(images)));
  }
  calib.step([&] {
    calib.zero_grad();
    auto loss = torch::cross_entropy_loss(scaler->forward(logits), labels);
    loss.backward();
    return loss;
  });
  std::printf("temperature %.3f\n", scaler->log_t.exp().item<float>());
}
