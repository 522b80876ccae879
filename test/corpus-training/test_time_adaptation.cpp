// Test-time adaptation and a robustness probe for a deployed classifier:
//  1. entropy minimisation on the unlabelled test stream, updating only the
//     normalisation layers' affine parameters (the model stays in eval mode);
//  2. FGSM accuracy: gradients of the loss w.r.t. the input of the eval-mode model.
#include <torch/torch.h>

#include <cstdio>
#include <vector>

struct NetImpl : torch::nn::Module {
  NetImpl() {
    conv1 = register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 64, 3).padding(1)));
    norm1 = register_module("norm1", torch::nn::GroupNorm(torch::nn::GroupNormOptions(8, 64)));
    conv2 = register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(64, 128, 3).stride(2).padding(1)));
    norm2 = register_module("norm2", torch::nn::GroupNorm(torch::nn::GroupNormOptions(8, 128)));
    drop = register_module("drop", torch::nn::Dropout(0.3));
    fc = register_module("fc", torch::nn::Linear(128, 10));
  }
  torch::Tensor forward(const torch::Tensor& x) {
    auto h = torch::relu(norm1->forward(conv1->forward(x)));
    h = torch::relu(norm2->forward(conv2->forward(h)));
    return fc->forward(drop->forward(h.mean({2, 3})));
  }
  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
  torch::nn::GroupNorm norm1{nullptr}, norm2{nullptr};
  torch::nn::Dropout drop{nullptr};
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  Net net;
  torch::load(net, "deployed_net.pt", device);
  net->to(device);
  net->eval();  // dropout off for both procedures

  std::vector<torch::Tensor> norm_params;
  for (auto& p : net->named_parameters()) {
    const bool is_norm = p.key().rfind("norm", 0) == 0;
    p.value().requires_grad_(is_norm);
    if (is_norm) norm_params.push_back(p.value());
  }
  torch::optim::SGD adapt_opt(norm_params, torch::optim::SGDOptions(1e-3).momentum(0.9));

  const auto opts = torch::TensorOptions().device(device);
  auto stream_x = torch::rand({4000, 3, 32, 32}, opts);
  auto stream_y = torch::randint(0, 10, {4000}, opts.dtype(torch::kLong));

  // 1. Adaptation: the eval-mode forward is backpropagated on purpose.
  auto adapted_correct = torch::zeros({}, opts.dtype(torch::kLong));
  for (int64_t i = 0; i < stream_x.size(0); i += 200) {
    auto x = stream_x.narrow(0, i, 200);
    auto logits = net->forward(x);
    auto p = torch::softmax(logits, 1);
    auto entropy = -(p * torch::log_softmax(logits, 1)).sum(1).mean();
    adapt_opt.zero_grad();
    entropy.backward();
    adapt_opt.step();
    adapted_correct += logits.detach().argmax(1).eq(stream_y.narrow(0, i, 200)).sum();
  }

  // 2. FGSM: the gradient flows to the input, not into the (frozen) weights.
  for (auto& p : net->parameters()) p.requires_grad_(false);
  const double eps = 8.0 / 255.0;
  auto robust_correct = torch::zeros({}, opts.dtype(torch::kLong));
  for (int64_t i = 0; i < stream_x.size(0); i += 200) {
    auto x = stream_x.narrow(0, i, 200).clone().requires_grad_(true);
    auto y = stream_y.narrow(0, i, 200);
    auto loss = torch::cross_entropy_loss(net->forward(x), y);
    auto grad = torch::autograd::grad({loss}, {x})[0];
    auto x_adv = (x.detach() + eps * grad.sign()).clamp(0, 1);
    torch::NoGradGuard no_grad;
    robust_correct += net->forward(x_adv).argmax(1).eq(y).sum();
  }
  std::printf("adapted acc %.3f  FGSM acc %.3f\n", adapted_correct.item<double>() / stream_x.size(0),
              robust_correct.item<double>() / stream_x.size(0));
}
