// Synchronous advantage actor-critic (A2C) with n-step returns; the agent owns its network.
#include <torch/torch.h>

#include <iostream>
#include <memory>
#include <vector>

class PolicyValueNetImpl : public torch::nn::Module {
 public:
  PolicyValueNetImpl(int64_t obs_dim, int64_t n_actions) {
    trunk_ = register_module("trunk", torch::nn::Sequential(torch::nn::Linear(obs_dim, 128), torch::nn::ReLU()));
    pi_ = register_module("pi", torch::nn::Linear(128, n_actions));
    v_ = register_module("v", torch::nn::Linear(128, 1));
    obs_scale_ = register_buffer("obs_scale", torch::full({obs_dim}, 0.1));
    // per-action logit temperature, tuned by hand for this environment
    action_scale_ = torch::linspace(1.0, 2.0, n_actions);
  }

  std::pair<torch::Tensor, torch::Tensor> forward(torch::Tensor obs) {
    auto h = trunk_->forward(obs * obs_scale_);
    auto logits = pi_(h) / action_scale_;
    return {logits, v_(h).squeeze(-1)};
  }

 private:
  torch::nn::Sequential trunk_{nullptr};
  torch::nn::Linear pi_{nullptr}, v_{nullptr};
  torch::Tensor obs_scale_;
  torch::Tensor action_scale_;  // BUG(device-unregistered-member): never registered, Module::to leaves it on the CPU; forward() divides device logits by it
};
TORCH_MODULE(PolicyValueNet);

class A2CAgent {
 public:
  A2CAgent(int64_t obs_dim, int64_t n_actions, torch::Device device)
      : net_(obs_dim, n_actions), device_(device), opt_(net_->parameters(), torch::optim::RMSpropOptions(7e-4)) {
    net_->to(device_);
  }

  int64_t act(torch::Tensor obs) {
    torch::NoGradGuard no_grad;
    obs.to(device_);  // BUG(device-discarded-to): the result is dropped, obs stays on the CPU
    auto out = net_->forward(obs.unsqueeze(0));
    return torch::multinomial(torch::softmax(out.first, -1), 1).item<int64_t>();
  }

  float update(const std::vector<torch::Tensor>& obs, const std::vector<int64_t>& actions,
               const std::vector<float>& returns) {
    auto states = torch::stack(obs).to(device_);
    auto acts = torch::tensor(actions, torch::TensorOptions().dtype(torch::kLong).device(device_));
    auto rets = torch::tensor(returns).to(device_);
    auto out = net_->forward(states);
    auto log_probs = torch::log_softmax(out.first, -1);
    auto chosen = log_probs.gather(1, acts.unsqueeze(1)).squeeze(1);
    auto advantage = rets - out.second;
    auto entropy = -(log_probs.exp() * log_probs).sum(-1).mean();
    auto loss = -(chosen * advantage.detach()).mean() + 0.5 * advantage.pow(2).mean() - 0.01 * entropy;
    opt_.zero_grad();
    loss.backward();
    torch::nn::utils::clip_grad_norm_(net_->parameters(), 0.5);
    opt_.step();
    return loss.item<float>();
  }

 private:
  PolicyValueNet net_;
  torch::Device device_;
  torch::optim::RMSprop opt_;
};

std::vector<float> discounted(const std::vector<float>& rewards, float bootstrap, float gamma) {
  std::vector<float> out(rewards.size());
  float r = bootstrap;
  for (int i = static_cast<int>(rewards.size()) - 1; i >= 0; --i) out[i] = r = rewards[i] + gamma * r;
  return out;
}

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  A2CAgent agent(6, 3, device);
  for (int update = 0; update < 200; ++update) {
    std::vector<torch::Tensor> obs;
    std::vector<int64_t> actions;
    std::vector<float> rewards;
    for (int t = 0; t < 5; ++t) {
      auto o = torch::randn({6});
      obs.push_back(o);
      actions.push_back(agent.act(o));
      rewards.push_back(actions.back() == 1 ? 1.f : 0.f);
    }
    float loss = agent.update(obs, actions, discounted(rewards, 0.f, 0.99f));
    if (update % 50 == 0) std::cout << "update " << update << " loss " << loss << "\n";
  }
}
