// A VAE with a continuous latent and a small categorical latent (Gumbel-softmax).
// The sampling tricks live in free helpers.
#include <torch/torch.h>

#include <cstdio>

static torch::Tensor reparameterize(const torch::Tensor& mu, const torch::Tensor& logvar) {
  auto eps = torch::randn(mu.sizes());  // BUG(device-factory-without-device): CPU noise; forward() passes the device mean and log-variance of the moved VAE
  return mu + eps * torch::exp(0.5 * logvar);
}

static torch::Tensor gumbel_softmax(const torch::Tensor& logits, double tau) {
  auto u = torch::rand(logits.sizes()).clamp(1e-9, 1 - 1e-9);  // BUG(device-factory-without-device): CPU uniforms added to the device logits below
  return torch::softmax((logits - torch::log(-torch::log(u))) / tau, -1);
}

// The same trick written with the input's options: fine on any device.
static torch::Tensor gumbel_softmax_like(const torch::Tensor& logits, double tau) {
  auto u = torch::rand_like(logits).clamp(1e-9, 1 - 1e-9);
  return torch::softmax((logits - torch::log(-torch::log(u))) / tau, -1);
}

struct VaeImpl : torch::nn::Module {
  VaeImpl() {
    enc = register_module("enc", torch::nn::Sequential(torch::nn::Linear(784, 400), torch::nn::ReLU()));
    mu = register_module("mu", torch::nn::Linear(400, 16));
    logvar = register_module("logvar", torch::nn::Linear(400, 16));
    cat_logits = register_module("cat_logits", torch::nn::Linear(400, 10));
    dec = register_module("dec", torch::nn::Sequential(torch::nn::Linear(26, 400), torch::nn::ReLU(),
                                                       torch::nn::Linear(400, 784)));
  }
  std::tuple<torch::Tensor, torch::Tensor, torch::Tensor, torch::Tensor> forward(const torch::Tensor& x, double tau) {
    auto h = enc->forward(x);
    auto m = mu->forward(h), lv = logvar->forward(h), c = cat_logits->forward(h);
    auto z = torch::cat({reparameterize(m, lv), gumbel_softmax(c, tau)}, 1);
    return {dec->forward(z), m, lv, c};
  }
  torch::nn::Sequential enc{nullptr}, dec{nullptr};
  torch::nn::Linear mu{nullptr}, logvar{nullptr}, cat_logits{nullptr};
};
TORCH_MODULE(Vae);

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  Vae vae;
  vae->to(device);
  torch::optim::Adam opt(vae->parameters(), torch::optim::AdamOptions(1e-3));
  const auto opts = torch::TensorOptions().device(device);

  for (int step = 0; step < 6000; ++step) {
    const double tau = std::max(0.5, 1.0 - 1e-4 * step);
    auto x = torch::rand({128, 784}, opts);
    auto [recon, m, lv, c] = vae->forward(x, tau);
    auto rec = torch::binary_cross_entropy_with_logits(recon, x, {}, {}, at::Reduction::Sum) / 128;
    auto kl = -0.5 * torch::sum(1 + lv - m.pow(2) - lv.exp()) / 128;
    auto q = torch::softmax(c, -1);
    auto kl_cat = (q * (torch::log(q + 1e-9) + std::log(10.0))).sum() / 128;
    auto loss = rec + kl + kl_cat;
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 500 == 0) {
      torch::NoGradGuard no_grad;
      auto sample_code = gumbel_softmax_like(torch::zeros({8, 10}, opts), 0.5);
      std::printf("step %d loss %.3f code entropy %.3f\n", step, loss.item<float>(),
                  -(sample_code * torch::log(sample_code + 1e-9)).sum(1).mean().item<float>());
    }
  }
}
