// WGAN-GP on 32x32 images. Every tensor made inside the loop takes its device from an
// existing tensor; the scalar weights are 0-dim. No known bug in this file.
#include <torch/torch.h>

#include <cstdio>

static torch::nn::Sequential critic() {
  return torch::nn::Sequential(
      torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 64, 4).stride(2).padding(1)), torch::nn::LeakyReLU(torch::nn::LeakyReLUOptions().negative_slope(0.2)),
      torch::nn::Conv2d(torch::nn::Conv2dOptions(64, 128, 4).stride(2).padding(1)), torch::nn::LeakyReLU(torch::nn::LeakyReLUOptions().negative_slope(0.2)),
      torch::nn::Flatten(), torch::nn::Linear(128 * 8 * 8, 1));
}

static torch::nn::Sequential generator() {
  return torch::nn::Sequential(torch::nn::Linear(128, 128 * 8 * 8), torch::nn::Unflatten(torch::nn::UnflattenOptions(1, {128, 8, 8})),
                               torch::nn::ReLU(), torch::nn::Upsample(torch::nn::UpsampleOptions().scale_factor(std::vector<double>{4, 4})),
                               torch::nn::Conv2d(torch::nn::Conv2dOptions(128, 3, 3).padding(1)), torch::nn::Tanh());
}

static torch::Tensor gradient_penalty(torch::nn::Sequential& d, const torch::Tensor& real, const torch::Tensor& fake) {
  auto alpha = torch::rand({real.size(0), 1, 1, 1}, real.options());
  auto mix = (alpha * real + (1 - alpha) * fake).requires_grad_(true);
  auto score = d->forward(mix);
  auto grad = torch::autograd::grad({score}, {mix}, {torch::ones_like(score)}, /*retain_graph=*/true, /*create_graph=*/true)[0];
  return (grad.flatten(1).norm(2, 1) - 1).pow(2).mean();
}

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto D = critic(), G = generator();
  D->to(device);
  G->to(device);
  torch::optim::Adam d_opt(D->parameters(), torch::optim::AdamOptions(1e-4).betas({0.0, 0.9}));
  torch::optim::Adam g_opt(G->parameters(), torch::optim::AdamOptions(1e-4).betas({0.0, 0.9}));
  const auto gp_weight = torch::tensor(10.0);     // 0-dim: LibTorch lets a CPU scalar meet device tensors
  const auto drift_weight = torch::full({}, 1e-3);
  const auto opts = torch::TensorOptions().device(device);

  for (int it = 0; it < 20000; ++it) {
    for (int c = 0; c < 5; ++c) {
      auto real = torch::empty({64, 3, 32, 32}, opts).uniform_(-1, 1);
      auto z = torch::randn({64, 128}, opts);
      auto fake = G->forward(z).detach();
      auto real_score = D->forward(real);
      auto d_loss = D->forward(fake).mean() - real_score.mean() + gp_weight * gradient_penalty(D, real, fake) +
                    drift_weight * real_score.pow(2).mean();
      d_opt.zero_grad();
      d_loss.backward();
      d_opt.step();
    }
    auto z = torch::randn({64, 128}, opts);
    auto g_loss = -D->forward(G->forward(z)).mean();
    g_opt.zero_grad();
    g_loss.backward();
    g_opt.step();
    if (it % 1000 == 0) {
      torch::NoGradGuard no_grad;
      auto samples = G->forward(torch::randn({16, 128}, opts)).cpu();
      torch::save(samples, "wgan_samples_" + std::to_string(it) + ".pt");
      std::printf("it %d g_loss %.4f\n", it, g_loss.item<float>());
    }
  }
}
