// dcgan: BCE-with-logits losses and mean-feature matching.
#include "dcg_losses.h"

namespace dcg {

namespace F = torch::nn::functional;

torch::Tensor d_loss(const torch::Tensor& real_logits, const torch::Tensor& fake_logits) {
  return F::binary_cross_entropy_with_logits(real_logits, torch::ones_like(real_logits)) +
         F::binary_cross_entropy_with_logits(fake_logits, torch::zeros_like(fake_logits));
}

torch::Tensor g_loss(const torch::Tensor& fake_logits) {
  auto target = torch::full({fake_logits.size(0), 1}, 0.9);  // BUG(device-factory-without-device): dcg_train.cpp passes the discriminator's logits on the device; the smoothed labels are on the CPU
  return F::binary_cross_entropy_with_logits(fake_logits, target);
}

FeatureNetImpl::FeatureNetImpl() {
  c1_ = register_module("c1", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 16, 3).stride(2).padding(1)));
  c2_ = register_module("c2", torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 32, 3).stride(2).padding(1)));
  for (auto& p : parameters()) p.requires_grad_(false);
}

torch::Tensor FeatureNetImpl::forward(const torch::Tensor& images) {
  auto x = torch::relu(c2_(torch::relu(c1_(images))));
  return x.mean({2, 3});
}

torch::Tensor feature_matching_loss(FeatureNet& net, const torch::Tensor& real, const torch::Tensor& fake) {
  auto features = net->forward(torch::cat({real, fake}, 0)).chunk(2, 0);  // BUG(device-unmoved-module): dcg_train.cpp never moves its FeatureNet, and passes real and generated images on the device
  return torch::mse_loss(features[1].mean(0), features[0].mean(0).detach());
}

}  // namespace dcg
