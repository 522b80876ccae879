// Deep Q-learning on a small control task: replay buffer, target network, Huber loss.
#include <torch/torch.h>

#include <deque>
#include <iostream>
#include <random>
#include <vector>

struct Transition {
  torch::Tensor state;  // CPU, [obs_dim]
  int64_t action;
  float reward;
  torch::Tensor next_state;  // CPU, [obs_dim]
  bool done;
};

struct SampledBatch {
  torch::Tensor states, actions, rewards, next_states, dones;
};

class ReplayBuffer {
 public:
  explicit ReplayBuffer(size_t capacity) : capacity_(capacity) {}

  void push(Transition t) {
    if (memory_.size() == capacity_) memory_.pop_front();
    memory_.push_back(std::move(t));
  }
  size_t size() const { return memory_.size(); }

  SampledBatch sample(size_t n, torch::Device device) {
    std::uniform_int_distribution<size_t> pick(0, memory_.size() - 1);
    std::vector<torch::Tensor> s, ns;
    std::vector<int64_t> a;
    std::vector<float> r, d;
    for (size_t i = 0; i < n; ++i) {
      const Transition& t = memory_[pick(rng_)];
      s.push_back(t.state);
      ns.push_back(t.next_state);
      a.push_back(t.action);
      r.push_back(t.reward);
      d.push_back(t.done ? 1.f : 0.f);
    }
    SampledBatch b;
    b.states = torch::stack(s).to(device);
    b.actions = torch::tensor(a);  // BUG(device-factory-without-device): CPU int64 indices; optimize() gathers the device Q-values with them (gather accepts no CPU index)
    b.rewards = torch::tensor(r).to(device);
    b.next_states = torch::stack(ns).to(device);
    b.dones = torch::tensor(d).to(device);
    return b;
  }

 private:
  size_t capacity_;
  std::deque<Transition> memory_;
  std::mt19937 rng_{123};
};

struct QNetImpl : torch::nn::Module {
  QNetImpl(int64_t obs, int64_t act)
      : fc1(register_module("fc1", torch::nn::Linear(obs, 128))),
        fc2(register_module("fc2", torch::nn::Linear(128, 128))),
        out(register_module("out", torch::nn::Linear(128, act))) {}
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1(x));
    x = torch::relu(fc2(x));
    return out(x);
  }
  torch::nn::Linear fc1, fc2, out;
};
TORCH_MODULE(QNet);

void optimize(QNet& policy, QNet& target, ReplayBuffer& buffer, torch::optim::Adam& opt,
              torch::Device device, float gamma) {
  auto b = buffer.sample(64, device);
  auto q = policy->forward(b.states).gather(1, b.actions.unsqueeze(1)).squeeze(1);
  torch::Tensor next_q;
  {
    torch::NoGradGuard no_grad;
    next_q = std::get<0>(target->forward(b.next_states).max(1));
  }
  auto expected = b.rewards + gamma * next_q * (1 - b.dones);
  auto loss = torch::smooth_l1_loss(q, expected);
  opt.zero_grad();
  loss.backward();
  torch::nn::utils::clip_grad_norm_(policy->parameters(), 10.0);
  opt.step();
}

void hard_update(QNet& from, QNet& to) {
  torch::NoGradGuard no_grad;
  auto src = from->parameters();
  auto dst = to->parameters();
  for (size_t i = 0; i < src.size(); ++i) dst[i].copy_(src[i]);
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t obs_dim = 4, n_actions = 2;
  QNet policy(obs_dim, n_actions), target(obs_dim, n_actions);
  policy->to(device);
  target->to(device);
  hard_update(policy, target);
  torch::optim::Adam opt(policy->parameters(), torch::optim::AdamOptions(1e-3));
  ReplayBuffer buffer(10000);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> coin(0.f, 1.f);

  auto state = torch::randn({obs_dim});
  float epsilon = 1.0f;
  for (int step = 0; step < 5000; ++step) {
    int64_t action;
    if (coin(rng) < epsilon) {
      action = static_cast<int64_t>(coin(rng) * n_actions) % n_actions;
    } else {
      torch::NoGradGuard no_grad;
      action = policy->forward(state.unsqueeze(0).to(device)).argmax(1).item<int64_t>();
    }
    auto next_state = state + 0.1 * torch::randn({obs_dim});
    float reward = 1.0f - next_state.abs().sum().item<float>() * 0.1f;
    bool done = next_state.abs().max().item<float>() > 2.4f;
    buffer.push({state, action, reward, next_state, done});
    state = done ? torch::randn({obs_dim}) : next_state;
    epsilon = std::max(0.05f, epsilon * 0.999f);
    if (buffer.size() >= 64) optimize(policy, target, buffer, opt, device, 0.99f);
    if (step % 500 == 0) hard_update(policy, target);
  }
  std::cout << "done, epsilon " << epsilon << "\n";
}
