// WGAN-GP on 32x32 images: critic with gradient penalty, generator updated every n_critic steps.
#include <torch/torch.h>

#include <iostream>

constexpr int64_t kNz = 100;

torch::nn::Sequential make_generator() {
  return torch::nn::Sequential(
      torch::nn::ConvTranspose2d(torch::nn::ConvTranspose2dOptions(kNz, 256, 4).bias(false)),
      torch::nn::BatchNorm2d(256), torch::nn::ReLU(),
      torch::nn::ConvTranspose2d(torch::nn::ConvTranspose2dOptions(256, 128, 4).stride(2).padding(1).bias(false)),
      torch::nn::BatchNorm2d(128), torch::nn::ReLU(),
      torch::nn::ConvTranspose2d(torch::nn::ConvTranspose2dOptions(128, 64, 4).stride(2).padding(1).bias(false)),
      torch::nn::BatchNorm2d(64), torch::nn::ReLU(),
      torch::nn::ConvTranspose2d(torch::nn::ConvTranspose2dOptions(64, 3, 4).stride(2).padding(1).bias(false)),
      torch::nn::Tanh());
}

torch::nn::Sequential make_critic() {
  return torch::nn::Sequential(
      torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 64, 4).stride(2).padding(1)),
      torch::nn::LeakyReLU(torch::nn::LeakyReLUOptions().negative_slope(0.2)),
      torch::nn::Conv2d(torch::nn::Conv2dOptions(64, 128, 4).stride(2).padding(1)),
      torch::nn::LeakyReLU(torch::nn::LeakyReLUOptions().negative_slope(0.2)),
      torch::nn::Conv2d(torch::nn::Conv2dOptions(128, 1, 8)), torch::nn::Flatten());
}

torch::Tensor gradient_penalty(torch::nn::Sequential& critic, const torch::Tensor& real, const torch::Tensor& fake) {
  auto alpha = torch::rand({real.size(0), 1, 1, 1});  // BUG(device-factory-without-device): CPU mixing weights meet the device images below
  auto mixed = (alpha * real + (1 - alpha) * fake).requires_grad_(true);
  auto score = critic->forward(mixed);
  auto grads = torch::autograd::grad({score}, {mixed}, {torch::ones_like(score)}, true, true)[0];
  return (grads.view({grads.size(0), -1}).norm(2, 1) - 1).pow(2).mean();
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto G = make_generator();
  auto D = make_critic();
  G->to(device);
  D->to(device);
  torch::optim::Adam opt_g(G->parameters(), torch::optim::AdamOptions(1e-4).betas({0.0, 0.9}));
  torch::optim::Adam opt_d(D->parameters(), torch::optim::AdamOptions(1e-4).betas({0.0, 0.9}));

  auto fixed_noise = torch::randn({16, kNz, 1, 1});
  const int n_critic = 5;
  const double lambda_gp = 10.0;

  for (int64_t it = 0; it < 20000; ++it) {
    for (int k = 0; k < n_critic; ++k) {
      auto real = torch::rand({64, 3, 32, 32}, torch::device(device)) * 2 - 1;
      auto z = torch::randn({64, kNz, 1, 1}, torch::device(device));
      auto fake = G->forward(z).detach();
      auto d_loss = D->forward(fake).mean() - D->forward(real).mean() + lambda_gp * gradient_penalty(D, real, fake);
      opt_d.zero_grad();
      d_loss.backward();
      opt_d.step();
    }
    auto z = torch::randn({64, kNz, 1, 1}, torch::device(device));
    auto g_loss = -D->forward(G->forward(z)).mean();
    opt_g.zero_grad();
    g_loss.backward();
    opt_g.step();

    if (it % 1000 == 0) {
      torch::NoGradGuard no_grad;
      G->eval();
      auto samples = G->forward(fixed_noise);  // BUG(device-unmoved-input): fixed_noise was created on the CPU, G was moved to device
      G->train();
      torch::save(samples.cpu(), "samples_" + std::to_string(it) + ".pt");
      std::cout << "iter " << it << " g_loss " << g_loss.item<float>() << "\n";
    }
  }
}
