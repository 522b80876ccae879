#include "sac_nets.h"

#include <cmath>

static torch::nn::Sequential mlp(int64_t in, int64_t hidden, int64_t out) {
  return torch::nn::Sequential(torch::nn::Linear(in, hidden), torch::nn::ReLU(), torch::nn::Linear(hidden, hidden),
                               torch::nn::ReLU(), torch::nn::Linear(hidden, out));
}

GaussianPolicyImpl::GaussianPolicyImpl(int64_t obs_dim, int64_t act_dim, int64_t hidden) {
  trunk = register_module("trunk", torch::nn::Sequential(torch::nn::Linear(obs_dim, hidden), torch::nn::ReLU(),
                                                         torch::nn::Linear(hidden, hidden), torch::nn::ReLU()));
  mu_head = register_module("mu_head", torch::nn::Linear(hidden, act_dim));
  log_std_head = register_module("log_std_head", torch::nn::Linear(hidden, act_dim));
}

std::pair<torch::Tensor, torch::Tensor> GaussianPolicyImpl::forward(const torch::Tensor& obs) {
  auto h = trunk->forward(obs);
  auto mu = mu_head->forward(h);
  auto log_std = log_std_head->forward(h).clamp(-20, 2);
  auto eps = torch::randn(mu.sizes());  // BUG(device-factory-without-device): CPU noise; sac_train.cpp moves the policy, so mu and log_std are device tensors here
  auto pre = mu + log_std.exp() * eps;
  auto action = torch::tanh(pre);
  auto logp = (-0.5 * eps.pow(2) - log_std - 0.5 * std::log(2 * M_PI)).sum(-1) -
              torch::log(1 - action.pow(2) + 1e-6).sum(-1);
  return {action, logp};
}

TwinQImpl::TwinQImpl(int64_t obs_dim, int64_t act_dim, int64_t hidden) {
  q1 = register_module("q1", mlp(obs_dim + act_dim, hidden, 1));
  q2 = register_module("q2", mlp(obs_dim + act_dim, hidden, 1));
}

std::pair<torch::Tensor, torch::Tensor> TwinQImpl::forward(const torch::Tensor& obs, const torch::Tensor& act) {
  auto x = torch::cat({obs, act}, -1);
  return {q1->forward(x).squeeze(-1), q2->forward(x).squeeze(-1)};
}
