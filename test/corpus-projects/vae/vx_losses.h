// vae: the evidence lower bound and its pieces.
#pragma once
#include <torch/torch.h>

#include "vx_model.h"

namespace vx {

// KL annealing weight: 0-dim, rises linearly to 1 over `warmup` steps.
torch::Tensor beta_weight(int64_t step, int64_t warmup);
torch::Tensor elbo_loss(const VAEOutput& out, const torch::Tensor& x, const torch::Tensor& beta);
// KL with a floor per latent dimension ("free bits").
torch::Tensor kl_free_bits(const torch::Tensor& mu, const torch::Tensor& logvar, double free_bits);

}  // namespace vx
