// vae: a fully connected variational autoencoder over flattened 8x8 images.
#pragma once
#include <torch/torch.h>

namespace vx {

struct VAEOutput {
  torch::Tensor recon;   // logits, (N, input_dim)
  torch::Tensor mu;      // (N, latent)
  torch::Tensor logvar;  // (N, latent)
};

class VAEImpl : public torch::nn::Module {
 public:
  VAEImpl(int64_t input_dim, int64_t latent_dim);
  VAEOutput forward(const torch::Tensor& x);

  torch::nn::Sequential decoder{nullptr};  // public: samplers decode latents directly

 private:
  torch::Tensor reparameterize(const torch::Tensor& mu, const torch::Tensor& logvar);
  torch::nn::Sequential encoder_{nullptr};
  torch::nn::Linear to_mu_{nullptr}, to_logvar_{nullptr};
};
TORCH_MODULE(VAE);

}  // namespace vx
