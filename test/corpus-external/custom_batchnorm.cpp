// A hand-written batch norm with frozen statistics for fine-tuning (like FrozenBatchNorm2d).
#include <torch/torch.h>

#include <iostream>

class StatBatchNormImpl : public torch::nn::Module {
 public:
  StatBatchNormImpl(int64_t channels, double momentum = 0.1, double eps = 1e-5) : momentum_(momentum), eps_(eps) {
    weight = register_parameter("weight", torch::ones({channels}));
    bias = register_parameter("bias", torch::zeros({channels}));
    running_mean = register_buffer("running_mean", torch::zeros({channels}));
    running_var = torch::ones({channels});
    frozen = false;
  }

  torch::Tensor forward(const torch::Tensor& x) {
    torch::Tensor mean, var;
    if (is_training() && !frozen) {
      mean = x.mean({0, 2, 3});
      var = x.var({0, 2, 3}, /*unbiased=*/false);
      torch::NoGradGuard no_grad;
      running_mean.mul_(1 - momentum_).add_(mean, momentum_);
      running_var.mul_(1 - momentum_).add_(var, momentum_);
    } else {
      mean = running_mean;
      var = running_var;
    }
    auto scale = weight / torch::sqrt(var + eps_);
    return x * scale.view({1, -1, 1, 1}) + (bias - mean * scale).view({1, -1, 1, 1});
  }

  torch::Tensor weight, bias, running_mean;
  torch::Tensor running_var;  // BUG(device-unregistered-member): not a buffer: stays on the CPU after to(), and is not saved with the model
  bool frozen;

 private:
  double momentum_, eps_;
};
TORCH_MODULE(StatBatchNorm);

struct BackboneImpl : torch::nn::Module {
  BackboneImpl() {
    c1 = register_module("c1", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).padding(1).bias(false)));
    bn1 = register_module("bn1", StatBatchNorm(16));
    c2 = register_module("c2", torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 32, 3).stride(2).padding(1).bias(false)));
    bn2 = register_module("bn2", StatBatchNorm(32));
    fc = register_module("fc", torch::nn::Linear(32, 10));
  }
  torch::Tensor forward(const torch::Tensor& x) {
    auto h = torch::relu(bn1(c1(x)));
    h = torch::relu(bn2(c2(h)));
    return fc(h.mean({2, 3}));
  }
  torch::nn::Conv2d c1{nullptr}, c2{nullptr};
  StatBatchNorm bn1{nullptr}, bn2{nullptr};
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Backbone);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Backbone net;
  net->to(device);
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  for (int step = 0; step < 1000; ++step) {
    auto x = torch::randn({32, 3, 32, 32}, torch::device(device));
    auto y = torch::randint(0, 10, {32}, torch::TensorOptions().dtype(torch::kLong).device(device));
    auto loss = torch::cross_entropy_loss(net->forward(x), y);
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step == 500) {
      net->bn1->frozen = true;
      net->bn2->frozen = true;
    }
  }
  torch::save(net, "backbone.pt");
  std::cout << "saved\n";
}
