// DCGAN on 64x64 images (random stand-in data). Two optimizers, one per network.
#include <torch/torch.h>

#include <cstdio>

constexpr int64_t kNoise = 100;

struct GeneratorImpl : torch::nn::Module {
  GeneratorImpl() {
    net = register_module(
        "net",
        torch::nn::Sequential(
            torch::nn::ConvTranspose2d(torch::nn::ConvTranspose2dOptions(kNoise, 256, 4).bias(false)),
            torch::nn::BatchNorm2d(256), torch::nn::ReLU(true),
            torch::nn::ConvTranspose2d(torch::nn::ConvTranspose2dOptions(256, 128, 4).stride(2).padding(1).bias(false)),
            torch::nn::BatchNorm2d(128), torch::nn::ReLU(true),
            torch::nn::ConvTranspose2d(torch::nn::ConvTranspose2dOptions(128, 64, 4).stride(2).padding(1).bias(false)),
            torch::nn::BatchNorm2d(64), torch::nn::ReLU(true),
            torch::nn::ConvTranspose2d(torch::nn::ConvTranspose2dOptions(64, 3, 8).stride(4).padding(2).bias(false)),
            torch::nn::Tanh()));
  }
  torch::Tensor forward(torch::Tensor z) { return net->forward(z); }
  torch::nn::Sequential net{nullptr};
};
TORCH_MODULE(Generator);

static torch::nn::Sequential make_discriminator() {
  return torch::nn::Sequential(
      torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 64, 4).stride(2).padding(1).bias(false)),
      torch::nn::LeakyReLU(torch::nn::LeakyReLUOptions().negative_slope(0.2)),
      torch::nn::Conv2d(torch::nn::Conv2dOptions(64, 128, 4).stride(2).padding(1).bias(false)),
      torch::nn::BatchNorm2d(128), torch::nn::LeakyReLU(torch::nn::LeakyReLUOptions().negative_slope(0.2)),
      torch::nn::Conv2d(torch::nn::Conv2dOptions(128, 1, 16).bias(false)), torch::nn::Flatten());
}

int main() {
  torch::Device device = torch::kCPU;
  if (torch::cuda::is_available()) device = torch::Device(torch::kCUDA);

  Generator generator;
  auto discriminator = make_discriminator();
  generator->to(device);
  discriminator->to(device);

  torch::optim::Adam g_opt(generator->parameters(), torch::optim::AdamOptions(2e-4).betas({0.5, 0.999}));
  torch::optim::Adam d_opt(discriminator->parameters(), torch::optim::AdamOptions(2e-4).betas({0.5, 0.999}));
  auto fixed_noise = torch::randn({16, kNoise, 1, 1}, torch::TensorOptions().device(device));

  const int64_t batch = 64;
  for (int64_t step = 0; step < 20000; ++step) {
    auto real = torch::rand({batch, 3, 64, 64}, torch::TensorOptions().device(device)) * 2 - 1;
    auto ones = torch::full({batch, 1}, 0.9, torch::TensorOptions().device(device));  // label smoothing
    auto zeros = torch::zeros({batch, 1}, torch::TensorOptions().device(device));

    // Discriminator: real vs detached fake.
    discriminator->zero_grad();
    auto d_real = torch::binary_cross_entropy_with_logits(discriminator->forward(real), ones);
    auto noise = torch::randn({batch, kNoise, 1, 1}, torch::TensorOptions().device(device));
    auto fake = generator->forward(noise);
    auto d_fake = torch::binary_cross_entropy_with_logits(discriminator->forward(fake.detach()), zeros);
    auto d_loss = d_real + d_fake;
    d_loss.backward();
    d_opt.step();

    // Generator: fool the discriminator.
    auto g_loss = torch::binary_cross_entropy_with_logits(discriminator->forward(fake), torch::ones_like(ones));
    g_loss.backward();
    g_opt.step();  // BUG(training-missing-zero-grad): nothing ever clears the generator's gradients, so every step adds to those of all earlier steps

    if (step % 500 == 0) {
      std::printf("step %lld  d %.3f  g %.3f\n", static_cast<long long>(step), d_loss.item<float>(),
                  g_loss.item<float>());
      torch::NoGradGuard no_grad;
      generator->eval();
      torch::save(generator->forward(fixed_noise).cpu(), "samples_" + std::to_string(step) + ".pt");
      generator->train();
    }
  }
  torch::save(generator, "generator.pt");
}
