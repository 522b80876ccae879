// Exponential moving average of model weights, with the shadow copy kept in host memory.
#include <torch/torch.h>

#include <iostream>
#include <vector>

class HostEMA {
 public:
  HostEMA(const std::vector<torch::Tensor>& params, double decay) : decay_(decay) {
    torch::NoGradGuard no_grad;
    for (const auto& p : params) shadow_.push_back(p.detach().cpu().clone());
  }

  void update(const std::vector<torch::Tensor>& params) {
    torch::NoGradGuard no_grad;
    for (size_t i = 0; i < params.size(); ++i) {
      shadow_[i].mul_(decay_).add_(params[i].detach(), 1.0 - decay_);  // BUG(device-mismatch): shadow_ lives on the CPU (.cpu() above), params on the model's device
    }
  }

  // Swap the averaged weights in for evaluation; copy_ crosses devices by itself.
  void copy_to(const std::vector<torch::Tensor>& params) const {
    torch::NoGradGuard no_grad;
    for (size_t i = 0; i < params.size(); ++i) params[i].copy_(shadow_[i]);
  }

 private:
  double decay_;
  std::vector<torch::Tensor> shadow_;
};

struct ConvClassifierImpl : torch::nn::Module {
  ConvClassifierImpl()
      : features(register_module("features", torch::nn::Sequential(
                                                 torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 32, 3).padding(1)), torch::nn::ReLU(),
                                                 torch::nn::MaxPool2d(2),
                                                 torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 64, 3).padding(1)), torch::nn::ReLU(),
                                                 torch::nn::AdaptiveAvgPool2d(1), torch::nn::Flatten()))),
        fc(register_module("fc", torch::nn::Linear(64, 100))) {}
  torch::Tensor forward(const torch::Tensor& x) { return fc(features->forward(x)); }
  torch::nn::Sequential features;
  torch::nn::Linear fc;
};
TORCH_MODULE(ConvClassifier);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  ConvClassifier model, eval_model;
  model->to(device);
  eval_model->to(device);
  HostEMA ema(model->parameters(), 0.999);
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9).nesterov(true));

  for (int step = 1; step <= 5000; ++step) {
    auto x = torch::randn({64, 3, 32, 32}, torch::device(device));
    auto y = torch::randint(0, 100, {64}, torch::TensorOptions().dtype(torch::kLong).device(device));
    auto loss = torch::cross_entropy_loss(model->forward(x), y);
    opt.zero_grad();
    loss.backward();
    opt.step();
    ema.update(model->parameters());
    if (step % 1000 == 0) {
      ema.copy_to(eval_model->parameters());
      torch::NoGradGuard no_grad;
      eval_model->eval();
      auto acc = eval_model->forward(x).argmax(1).eq(y).to(torch::kFloat).mean();
      std::cout << step << " ema acc on batch " << acc.item<float>() << "\n";
    }
  }
}
