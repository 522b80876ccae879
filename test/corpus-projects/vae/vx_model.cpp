// vae: encoder -> (mu, logvar) -> reparameterised sample -> decoder.
#include "vx_model.h"

namespace vx {

VAEImpl::VAEImpl(int64_t input_dim, int64_t latent_dim) {
  encoder_ = register_module("encoder", torch::nn::Sequential(torch::nn::Linear(input_dim, 32), torch::nn::ReLU()));
  to_mu_ = register_module("to_mu", torch::nn::Linear(32, latent_dim));
  to_logvar_ = register_module("to_logvar", torch::nn::Linear(32, latent_dim));
  decoder = register_module("decoder", torch::nn::Sequential(torch::nn::Linear(latent_dim, 32), torch::nn::ReLU(),
                                                            torch::nn::Linear(32, input_dim)));
}

torch::Tensor VAEImpl::reparameterize(const torch::Tensor& mu, const torch::Tensor& logvar) {
  auto std = torch::exp(0.5 * logvar);
  return mu + torch::randn_like(std) * std;
}

VAEOutput VAEImpl::forward(const torch::Tensor& x) {
  auto h = encoder_->forward(x);
  auto mu = to_mu_(h), logvar = to_logvar_(h);
  return {decoder->forward(reparameterize(mu, logvar)), mu, logvar};
}

}  // namespace vx
