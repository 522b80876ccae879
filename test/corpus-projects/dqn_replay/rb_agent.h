// dqn_replay: epsilon-greedy acting and the DQN update with a target network.
#pragma once
#include <torch/torch.h>

#include <random>
#include <vector>

#include "rb_buffer.h"
#include "rb_qnet.h"

namespace rb {

class Agent {
 public:
  // online and target are already on `device`.
  Agent(QNet online, QNet target, int64_t actions);
  int64_t act(const std::vector<float>& obs, double epsilon, std::mt19937& rng);
  float learn(const ReplayBuffer& buffer, int64_t batch, double gamma);
  void sync_target() { hard_update(target_, online_); }

 private:
  QNet online_, target_;
  int64_t actions_;
  torch::optim::Adam opt_;
};

int64_t greedy_action(QNet& q, const torch::Tensor& obs);
// The largest Q-value, for the training log.
float max_q_host(const torch::Tensor& q);

}  // namespace rb
