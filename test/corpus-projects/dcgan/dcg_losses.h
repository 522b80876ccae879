// dcgan: adversarial losses and a feature-matching term computed by a fixed feature network.
#pragma once
#include <torch/torch.h>

namespace dcg {

torch::Tensor d_loss(const torch::Tensor& real_logits, const torch::Tensor& fake_logits);
// Non-saturating generator loss with one-sided label smoothing.
torch::Tensor g_loss(const torch::Tensor& fake_logits);

// A frozen, randomly initialised convolutional feature extractor.
class FeatureNetImpl : public torch::nn::Module {
 public:
  FeatureNetImpl();
  torch::Tensor forward(const torch::Tensor& images);  // (N, 32)

 private:
  torch::nn::Conv2d c1_{nullptr}, c2_{nullptr};
};
TORCH_MODULE(FeatureNet);

torch::Tensor feature_matching_loss(FeatureNet& net, const torch::Tensor& real, const torch::Tensor& fake);

}  // namespace dcg
