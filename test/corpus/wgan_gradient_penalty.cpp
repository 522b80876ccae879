// WGAN-GP critic update: interpolation weights for the gradient penalty.
#include <torch/torch.h>

struct CriticImpl : torch::nn::Module {
  CriticImpl() : net(register_module("net", torch::nn::Sequential(
                                                torch::nn::Linear(2, 64), torch::nn::LeakyReLU(),
                                                torch::nn::Linear(64, 1)))) {}
  torch::Tensor forward(const torch::Tensor& x) { return net->forward(x); }
  torch::nn::Sequential net;
};
TORCH_MODULE(Critic);

torch::Tensor gradient_penalty_buggy(Critic& critic, const torch::Tensor& real, const torch::Tensor& fake,
                                     torch::Device device) {
  auto r = real.to(device);
  auto alpha = torch::rand({r.size(0), 1});  // BUG(device-factory-without-device): CPU weights mixed with device samples
  auto mixed = (alpha * r + (1 - alpha) * fake.to(device)).detach().requires_grad_(true);
  auto score = critic->forward(mixed);
  auto grads = torch::autograd::grad({score}, {mixed}, {torch::ones_like(score)}, true, true)[0];
  return (grads.norm(2, 1) - 1).pow(2).mean();
}

torch::Tensor gradient_penalty(Critic& critic, const torch::Tensor& real, const torch::Tensor& fake) {
  auto alpha = torch::rand({real.size(0), 1}, real.options());
  auto mixed = (alpha * real + (1 - alpha) * fake).detach().requires_grad_(true);
  auto score = critic->forward(mixed);
  auto grads = torch::autograd::grad({score}, {mixed}, {torch::ones_like(score)}, true, true)[0];
  return (grads.norm(2, 1) - 1).pow(2).mean();
}

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  Critic critic;
  critic->to(device);
  torch::optim::Adam opt(critic->parameters(), torch::optim::AdamOptions(1e-4).betas({0.0, 0.9}));
  const double lambda = 10.0;
  for (int step = 0; step < 50; ++step) {
    auto real = torch::randn({64, 2}) * 0.5 + 2.0;
    auto fake = torch::randn({64, 2}, torch::TensorOptions().device(device));
    auto real_d = real.to(device);
    auto loss = critic->forward(fake).mean() - critic->forward(real_d).mean() +
                lambda * gradient_penalty(critic, real_d, fake) +
                lambda * gradient_penalty_buggy(critic, real, fake, device);
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}
