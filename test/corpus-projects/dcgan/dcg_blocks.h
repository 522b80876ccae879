// dcgan: layers shared by the generator and the discriminator.
#pragma once
#include <torch/torch.h>

namespace dcg {

// StyleGAN-style per-pixel noise, scaled by a learned per-channel weight.
class NoiseInjectionImpl : public torch::nn::Module {
 public:
  explicit NoiseInjectionImpl(int64_t channels);
  torch::Tensor forward(const torch::Tensor& x);

 private:
  torch::Tensor weight_;
};
TORCH_MODULE(NoiseInjection);

// Appends the batch's mean feature standard deviation as one more channel.
class MinibatchStdDevImpl : public torch::nn::Module {
 public:
  torch::Tensor forward(const torch::Tensor& x);
};
TORCH_MODULE(MinibatchStdDev);

}  // namespace dcg
