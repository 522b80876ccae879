// dqn_replay: Huber loss against r + gamma * max_a' Q_target(s', a').
#include "rb_agent.h"

#include <algorithm>

namespace rb {

Agent::Agent(QNet online, QNet target, int64_t actions)
    : online_(online), target_(target), actions_(actions), opt_(online->parameters(), torch::optim::AdamOptions(1e-3)) {}

int64_t Agent::act(const std::vector<float>& obs, double epsilon, std::mt19937& rng) {
  if (std::uniform_real_distribution<double>(0.0, 1.0)(rng) < epsilon)
    return std::uniform_int_distribution<int64_t>(0, actions_ - 1)(rng);
  torch::NoGradGuard no_grad;
  auto x = torch::tensor(obs).unsqueeze(0);
  return online_->forward(x).argmax(1).item<int64_t>();  // BUG(device-unmoved-input): the observation is built on the CPU; rb_train.cpp moved the online network to the device before handing it to the Agent
}

float Agent::learn(const ReplayBuffer& buffer, int64_t batch, double gamma) {
  auto [obs, actions, rewards, next_obs, dones] = buffer.sample(batch);
  auto q = online_->forward(obs).gather(1, actions.unsqueeze(1)).squeeze(1);
  torch::Tensor target;
  {
    torch::NoGradGuard no_grad;
    auto next_q = std::get<0>(target_->forward(next_obs).max(1));
    target = rewards + gamma * next_q * (1 - dones);
  }
  auto loss = torch::smooth_l1_loss(q, target);
  opt_.zero_grad();
  loss.backward();
  opt_.step();
  return loss.item<float>();
}

int64_t greedy_action(QNet& q, const torch::Tensor& obs) {
  torch::NoGradGuard no_grad;
  return q->forward(obs).argmax(1).item<int64_t>();  // BUG(device-unmoved-module): rb_eval.cpp's policy is loaded on the CPU (load_policy) and never moved, while the observations it passes are on the device
}

float max_q_host(const torch::Tensor& q) {
  const float* p = q.data_ptr<float>();  // BUG(device-host-access): rb_train.cpp passes the output of the online network it moved to the device
  return *std::max_element(p, p + q.numel());
}

}  // namespace rb
