// Inputs reaching a module that was moved with ->to(device).
#include <torch/torch.h>

#include <iostream>

struct ClassifierImpl : torch::nn::Module {
  ClassifierImpl()
      : features(register_module("features", torch::nn::Sequential(
                                                 torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).padding(1)),
                                                 torch::nn::ReLU(), torch::nn::AdaptiveAvgPool2d(1)))),
        fc(register_module("fc", torch::nn::Linear(16, 10))) {}
  torch::Tensor forward(const torch::Tensor& x) { return fc->forward(features->forward(x).flatten(1)); }
  torch::nn::Sequential features;
  torch::nn::Linear fc;
};
TORCH_MODULE(Classifier);

torch::Tensor preprocess(const torch::Tensor& raw) {
  return (raw.to(torch::kFloat) / 255.0 - 0.5) / 0.25;
}

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  Classifier net;
  net->to(device);
  net->eval();
  torch::NoGradGuard no_grad;

  auto smoke = net->forward(torch::randn({1, 3, 32, 32}));  // BUG(device-unmoved-input): net is on `device`, the input on the CPU
  auto raw = torch::randint(0, 256, {8, 3, 32, 32}, torch::kByte);
  auto batch = preprocess(raw);
  auto logits = net->forward(batch);  // BUG(device-unmoved-input): preprocess() keeps the batch on the CPU

  auto ok1 = net->forward(batch.to(device));
  auto ok2 = net->forward(torch::randn({2, 3, 32, 32}, torch::TensorOptions().device(device)));
  auto moved = preprocess(raw.to(device));
  auto ok3 = net->forward(moved);

  Classifier cpu_net;  // never moved: CPU inputs are right
  auto ok4 = cpu_net->forward(torch::randn({1, 3, 32, 32}));

  torch::nn::Linear probe(10, 2);
  probe->to(device);
  auto ok5 = probe->forward(ok1);
  auto bad = probe->forward(ok4);  // BUG(device-unmoved-input): ok4 came from the CPU-only network
  std::cout << smoke.sizes() << logits.sizes() << ok2.sizes() << ok3.sizes() << ok5.sizes() << bad.sizes()
            << '\n';
}
