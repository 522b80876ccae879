// vae: Bernoulli reconstruction term + Gaussian KL.
#include "vx_losses.h"

#include <algorithm>

namespace vx {

namespace F = torch::nn::functional;

torch::Tensor beta_weight(int64_t step, int64_t warmup) {
  return torch::tensor(std::min(1.0, static_cast<double>(step) / static_cast<double>(warmup)));
}

torch::Tensor elbo_loss(const VAEOutput& out, const torch::Tensor& x, const torch::Tensor& beta) {
  const auto n = static_cast<double>(x.size(0));
  auto rec = F::binary_cross_entropy_with_logits(out.recon, x, F::BinaryCrossEntropyWithLogitsFuncOptions().reduction(torch::kSum)) / n;
  auto kl = -0.5 * torch::sum(1 + out.logvar - out.mu.pow(2) - out.logvar.exp()) / n;
  return rec + beta * kl;
}

torch::Tensor kl_free_bits(const torch::Tensor& mu, const torch::Tensor& logvar, double free_bits) {
  auto kl = -0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).mean(0);
  auto floor = torch::full({mu.size(1)}, free_bits);  // BUG(device-factory-without-device): vx_eval.cpp passes mu and logvar of the model it moved to the device
  return torch::maximum(kl, floor).sum();
}

}  // namespace vx
