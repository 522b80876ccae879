// dcgan: generator (latent (N, nz, 1, 1) -> (N, 1, 16, 16) in [-1, 1]) and discriminator.
#pragma once
#include <torch/torch.h>

#include "dcg_blocks.h"

namespace dcg {

class GeneratorImpl : public torch::nn::Module {
 public:
  explicit GeneratorImpl(int64_t nz);
  torch::Tensor forward(const torch::Tensor& z);

 private:
  torch::nn::ConvTranspose2d up1_{nullptr}, up2_{nullptr}, up3_{nullptr};
  torch::nn::BatchNorm2d bn1_{nullptr}, bn2_{nullptr};
  NoiseInjection noise_{nullptr};
};
TORCH_MODULE(Generator);

class DiscriminatorImpl : public torch::nn::Module {
 public:
  DiscriminatorImpl();
  torch::Tensor forward(const torch::Tensor& images);  // (N, 1) logits

 private:
  MinibatchStdDev mbstd_{nullptr};
  torch::nn::Conv2d c1_{nullptr}, c2_{nullptr};
  torch::nn::Linear out_{nullptr};
};
TORCH_MODULE(Discriminator);

}  // namespace dcg
