// DCGAN-style generator and discriminator for 64x64 images.
#pragma once

#include <torch/torch.h>

#include <utility>

constexpr int64_t kLatent = 128;

class GeneratorImpl : public torch::nn::Module {
 public:
  explicit GeneratorImpl(int64_t ngf = 64);
  torch::Tensor forward(const torch::Tensor& z);
  // Draws n latent vectors itself and renders them (for previews and FID).
  torch::Tensor sample(int64_t n);

 private:
  torch::nn::Sequential net_{nullptr};
};
TORCH_MODULE(Generator);

class DiscriminatorImpl : public torch::nn::Module {
 public:
  explicit DiscriminatorImpl(int64_t ndf = 64);
  // Returns the real/fake logits [B, 1] and the penultimate features [B, F] (for feature matching).
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& images);

 private:
  torch::nn::Sequential features_{nullptr};
  torch::nn::Sequential head_{nullptr};  // BUG(device-unregistered-member): gan_model.cpp assigns it without register_module: D->to(device) in gan_train.cpp leaves it on the CPU, and opt_d never trains it
};
TORCH_MODULE(Discriminator);
