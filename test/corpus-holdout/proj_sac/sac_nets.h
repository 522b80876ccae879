#pragma once
// Networks of a soft actor-critic agent: a tanh-squashed Gaussian policy and twin Q
// functions. Constructors and forwards are defined in sac_nets.cpp.
#include <torch/torch.h>

#include <utility>

struct GaussianPolicyImpl : torch::nn::Module {
  GaussianPolicyImpl(int64_t obs_dim, int64_t act_dim, int64_t hidden);
  // A reparameterised sample and its log-probability.
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& obs);

  torch::nn::Sequential trunk{nullptr};
  torch::nn::Linear mu_head{nullptr}, log_std_head{nullptr};
};
TORCH_MODULE(GaussianPolicy);

struct TwinQImpl : torch::nn::Module {
  TwinQImpl(int64_t obs_dim, int64_t act_dim, int64_t hidden);
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& obs, const torch::Tensor& act);

  torch::nn::Sequential q1{nullptr}, q2{nullptr};
};
TORCH_MODULE(TwinQ);
