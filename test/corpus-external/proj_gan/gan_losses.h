// Non-saturating GAN losses with one-sided label smoothing, feature matching and an R1 penalty.
#pragma once

#include <torch/torch.h>

torch::Tensor discriminator_loss(const torch::Tensor& real_logits, const torch::Tensor& fake_logits, double smooth = 0.9);
torch::Tensor generator_loss(const torch::Tensor& fake_logits);
torch::Tensor feature_matching_loss(const torch::Tensor& real_features, const torch::Tensor& fake_features);
torch::Tensor r1_penalty(const torch::Tensor& real_logits, const torch::Tensor& real_images);

// Mode-seeking regulariser: distance between pairs of fakes relative to their latent codes.
torch::Tensor diversity_loss(const torch::Tensor& fakes, const torch::Tensor& z);

// Learned log-variances for uncertainty-weighted loss terms (one per term), created on `device`.
torch::Tensor make_loss_log_vars(int64_t terms, torch::Device device);
