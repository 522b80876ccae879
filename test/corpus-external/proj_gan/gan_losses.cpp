#include "gan_losses.h"

torch::Tensor discriminator_loss(const torch::Tensor& real_logits, const torch::Tensor& fake_logits, double smooth) {
  auto real_targets = torch::full({real_logits.size(0), 1}, smooth);  // BUG(device-factory-without-device): CPU targets; gan_train.cpp passes device logits
  auto fake_targets = torch::zeros_like(fake_logits);
  return torch::binary_cross_entropy_with_logits(real_logits, real_targets) +
         torch::binary_cross_entropy_with_logits(fake_logits, fake_targets);
}

torch::Tensor generator_loss(const torch::Tensor& fake_logits) {
  return torch::binary_cross_entropy_with_logits(fake_logits, torch::ones_like(fake_logits));
}

torch::Tensor feature_matching_loss(const torch::Tensor& real_features, const torch::Tensor& fake_features) {
  return torch::mse_loss(fake_features.mean(0), real_features.mean(0).detach());
}

torch::Tensor r1_penalty(const torch::Tensor& real_logits, const torch::Tensor& real_images) {
  auto grad = torch::autograd::grad({real_logits.sum()}, {real_images}, {}, /*retain_graph=*/true, /*create_graph=*/true)[0];
  return grad.pow(2).flatten(1).sum(1).mean();
}

torch::Tensor diversity_loss(const torch::Tensor& fakes, const torch::Tensor& z) {
  auto perm = torch::randperm(fakes.size(0));  // host indices: index() accepts them for device tensors
  auto df = (fakes - fakes.index({perm})).abs().flatten(1).mean(1);
  auto dz = (z - z.index({perm})).abs().flatten(1).mean(1);
  return 1.0 / (df / (dz + 1e-5)).mean().clamp_min(1e-5);
}

torch::Tensor make_loss_log_vars(int64_t terms, torch::Device device) {
  return torch::zeros({terms}, torch::requires_grad()).to(device);  // BUG(device-mid-graph-to): on a GPU the result is a copy, not a leaf; gan_train.cpp hands it to an optimizer
}
