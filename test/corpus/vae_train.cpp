// Variational autoencoder training step, written device-correctly throughout.
#include <torch/torch.h>

#include <iostream>

struct VaeImpl : torch::nn::Module {
  VaeImpl(int64_t in, int64_t latent)
      : enc(register_module("enc", torch::nn::Linear(in, 256))),
        mu(register_module("mu", torch::nn::Linear(256, latent))),
        logvar(register_module("logvar", torch::nn::Linear(256, latent))),
        dec1(register_module("dec1", torch::nn::Linear(latent, 256))),
        dec2(register_module("dec2", torch::nn::Linear(256, in))) {}

  std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> forward(const torch::Tensor& x) {
    auto h = torch::relu(enc->forward(x));
    auto m = mu->forward(h);
    auto lv = logvar->forward(h);
    auto std = torch::exp(0.5 * lv);
    auto z = m + torch::randn_like(std) * std;
    auto recon = torch::sigmoid(dec2->forward(torch::relu(dec1->forward(z))));
    return {recon, m, lv};
  }

  torch::nn::Linear enc, mu, logvar, dec1, dec2;
};
TORCH_MODULE(Vae);

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  const int64_t epochs = 20;
  Vae vae(784, 16);
  vae->to(device);
  torch::optim::Adam opt(vae->parameters(), 1e-3);
  auto data = torch::rand({512, 784});
  auto beta_schedule = torch::linspace(0.0, 1.0, epochs);  // CPU; indexed to 0-dim scalars below

  for (int64_t epoch = 0; epoch < epochs; ++epoch) {
    auto beta = beta_schedule[epoch];  // 0-dim CPU tensor: fine next to device tensors
    auto epoch_loss = torch::zeros({}, torch::TensorOptions().device(device));
    for (int64_t i = 0; i < 512; i += 128) {
      auto x = data.slice(0, i, i + 128).to(device);
      auto [recon, m, lv] = vae->forward(x);
      auto rec = torch::binary_cross_entropy(recon, x, {}, torch::Reduction::Sum);
      auto kl = -0.5 * torch::sum(1 + lv - m.pow(2) - lv.exp());
      auto loss = (rec + beta * kl) / 128.0;
      opt.zero_grad();
      loss.backward();
      opt.step();
      epoch_loss += loss.detach();
    }
    std::cout << epoch << ' ' << epoch_loss.item<double>() << '\n';
  }
  torch::NoGradGuard no_grad;
  auto z = torch::randn({8, 16}, torch::TensorOptions().device(device));
  auto samples = torch::sigmoid(vae->dec2->forward(torch::relu(vae->dec1->forward(z)))).cpu();
  torch::save(samples, "samples.pt");
}
