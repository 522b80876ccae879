// dqn_replay: a two-layer MLP over the observation.
#include "rb_qnet.h"

namespace rb {

QNetImpl::QNetImpl(int64_t obs_dim, int64_t actions)
    : fc1_(register_module("fc1", torch::nn::Linear(obs_dim, 32))),
      fc2_(register_module("fc2", torch::nn::Linear(32, actions))) {}

torch::Tensor QNetImpl::forward(const torch::Tensor& obs) { return fc2_(torch::relu(fc1_(obs))); }

void hard_update(QNet& target, QNet& online) {
  torch::NoGradGuard no_grad;
  auto dst = target->parameters();
  auto src = online->parameters();
  for (size_t i = 0; i < dst.size(); ++i) dst[i].copy_(src[i]);
}

void load_policy(QNet& q, const std::string& path) { torch::load(q, path, torch::kCPU); }

}  // namespace rb
