// DCGAN on 32x32 images: per-step console log of both losses, a discriminator that sits out a
// step when it is winning too clearly, and a grid of samples from fixed noise every epoch.
#include <torch/torch.h>

#include <cstdio>
#include <string>

struct GeneratorImpl : torch::nn::Module {
  GeneratorImpl()
      : net(register_module("net", torch::nn::Sequential(
            torch::nn::ConvTranspose2d(torch::nn::ConvTranspose2dOptions(100, 128, 4).bias(false)),
            torch::nn::BatchNorm2d(128), torch::nn::ReLU(),
            torch::nn::ConvTranspose2d(torch::nn::ConvTranspose2dOptions(128, 64, 4).stride(2).padding(1).bias(false)),
            torch::nn::BatchNorm2d(64), torch::nn::ReLU(),
            torch::nn::ConvTranspose2d(torch::nn::ConvTranspose2dOptions(64, 3, 4).stride(4).bias(false)),
            torch::nn::Tanh()))) {}
  torch::Tensor forward(const torch::Tensor& z) { return net->forward(z); }
  torch::nn::Sequential net;
};
TORCH_MODULE(Generator);

torch::nn::Sequential discriminator() {
  return torch::nn::Sequential(
      torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 64, 4).stride(2).padding(1)), torch::nn::LeakyReLU(),
      torch::nn::Conv2d(torch::nn::Conv2dOptions(64, 128, 4).stride(2).padding(1)), torch::nn::LeakyReLU(),
      torch::nn::Conv2d(torch::nn::Conv2dOptions(128, 1, 8)), torch::nn::Flatten());
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Generator G;
  auto D = discriminator();
  G->to(device);
  D->to(device);
  torch::optim::Adam g_opt(G->parameters(), torch::optim::AdamOptions(2e-4).betas({0.5, 0.999}));
  torch::optim::Adam d_opt(D->parameters(), torch::optim::AdamOptions(2e-4).betas({0.5, 0.999}));
  auto fixed_noise = torch::randn({64, 100, 1, 1}, torch::TensorOptions().device(device));
  const int64_t batch = 64;
  auto ones = torch::ones({batch, 1}, torch::TensorOptions().device(device));
  auto zeros = torch::zeros({batch, 1}, torch::TensorOptions().device(device));

  for (int epoch = 0; epoch < 25; ++epoch) {
    for (int step = 0; step < 500; ++step) {
      auto real = (torch::rand({batch, 3, 32, 32}) * 2 - 1).to(device);  // stands in for the loader
      auto noise = torch::randn({batch, 100, 1, 1}, torch::TensorOptions().device(device));
      auto fake = G->forward(noise);

      auto d_real = D->forward(real);
      auto d_fake = D->forward(fake.detach());
      auto d_loss = torch::binary_cross_entropy_with_logits(d_real, ones) +
                    torch::binary_cross_entropy_with_logits(d_fake, zeros);
      auto d_acc = ((d_real > 0).sum() + (d_fake < 0).sum()).to(torch::kFloat) / (2 * batch);
      // The discriminator skips its update while it classifies almost everything correctly.
      if (d_acc.item<float>() < 0.95f) {  // SYNC(necessary): decides whether the discriminator steps this iteration
        d_opt.zero_grad();
        d_loss.backward();
        d_opt.step();
      }

      g_opt.zero_grad();
      auto g_loss = torch::binary_cross_entropy_with_logits(D->forward(fake), ones);
      g_loss.backward();
      g_opt.step();
      // Two reads on one line: the first drains the queue, the second is a further small copy.
      std::printf("[%d/%d] D %.4f G %.4f\n", epoch, step, d_loss.item<float>(), g_loss.item<float>());  // BUG(device-sync-in-loop): avoidable: both losses logged every step
    }
    torch::NoGradGuard no_grad;
    auto samples = G->forward(fixed_noise).detach().cpu();  // SYNC(rare): once per epoch, after the step loop, to save a sample grid
    torch::save(samples, "samples_epoch_" + std::to_string(epoch) + ".pt");
  }
  return 0;
}
