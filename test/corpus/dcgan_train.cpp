// DCGAN training step: noise and label tensors for the discriminator.
#include <torch/torch.h>

#include <iostream>

struct GeneratorImpl : torch::nn::Module {
  explicit GeneratorImpl(int64_t nz)
      : net(register_module("net", torch::nn::Sequential(
            torch::nn::ConvTranspose2d(torch::nn::ConvTranspose2dOptions(nz, 64, 4).bias(false)),
            torch::nn::BatchNorm2d(64), torch::nn::ReLU(),
            torch::nn::ConvTranspose2d(torch::nn::ConvTranspose2dOptions(64, 1, 4).stride(2).padding(1)),
            torch::nn::Tanh()))) {}
  torch::Tensor forward(torch::Tensor z) { return net->forward(z); }
  torch::nn::Sequential net;
};
TORCH_MODULE(Generator);

struct DiscriminatorImpl : torch::nn::Module {
  DiscriminatorImpl()
      : net(register_module("net", torch::nn::Sequential(
            torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 64, 4).stride(2).padding(1)),
            torch::nn::LeakyReLU(torch::nn::LeakyReLUOptions().negative_slope(0.2)),
            torch::nn::Flatten(), torch::nn::Linear(64 * 4 * 4, 1)))) {}
  torch::Tensor forward(torch::Tensor x) { return net->forward(x).view(-1); }
  torch::nn::Sequential net;
};
TORCH_MODULE(Discriminator);

int main() {
  const int64_t nz = 100, batch = 32;
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  Generator gen(nz);
  Discriminator disc;
  gen->to(device);
  disc->to(device);
  torch::optim::Adam g_opt(gen->parameters(), torch::optim::AdamOptions(2e-4).betas({0.5, 0.999}));
  torch::optim::Adam d_opt(disc->parameters(), torch::optim::AdamOptions(2e-4).betas({0.5, 0.999}));
  auto fixed_noise = torch::randn({16, nz, 1, 1}, torch::TensorOptions().device(device));

  for (int step = 0; step < 100; ++step) {
    auto real = torch::rand({batch, 1, 8, 8}).mul(2).sub(1).to(device);

    // Discriminator on real images.
    d_opt.zero_grad();
    auto real_labels = torch::ones({batch});  // BUG(device-factory-without-device): CPU labels meet the discriminator's output in the loss
    auto d_real = torch::binary_cross_entropy_with_logits(disc->forward(real), real_labels);

    // Discriminator on generated images.
    auto noise = torch::randn({batch, nz, 1, 1});
    auto fake = gen->forward(noise);  // BUG(device-unmoved-input): generator is on `device`, the noise on the CPU
    auto fake_labels = torch::zeros({batch}, real.options());
    auto d_fake = torch::binary_cross_entropy_with_logits(disc->forward(fake.detach()), fake_labels);
    (d_real + d_fake).backward();
    d_opt.step();

    // Generator step: wants the discriminator to say "real".
    g_opt.zero_grad();
    auto target = torch::ones_like(fake_labels);
    auto g_loss = torch::binary_cross_entropy_with_logits(disc->forward(fake), target);
    g_loss.backward();
    g_opt.step();

    if (step % 10 == 0) {
      torch::NoGradGuard no_grad;
      auto samples = gen->forward(fixed_noise).cpu();
      torch::save(samples, "samples.pt");
      std::cout << step << ' ' << g_loss.item<float>() << '\n';
    }
  }
}
