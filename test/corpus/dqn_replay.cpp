// DQN with a CPU replay buffer; batches are moved to the device for the update.
#include <torch/torch.h>

#include <deque>
#include <random>
#include <vector>

struct Transition {
  torch::Tensor state, next_state;
  int64_t action;
  float reward;
  bool done;
};

struct QNetImpl : torch::nn::Module {
  QNetImpl(int64_t obs, int64_t actions)
      : fc1(register_module("fc1", torch::nn::Linear(obs, 128))),
        fc2(register_module("fc2", torch::nn::Linear(128, actions))) {}
  torch::Tensor forward(torch::Tensor x) { return fc2->forward(torch::relu(fc1->forward(x))); }
  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(QNet);

struct Batch {
  torch::Tensor states, next_states, actions, rewards, dones;
};

Batch sample(const std::deque<Transition>& buffer, int64_t n, std::mt19937& rng, torch::Device device) {
  std::uniform_int_distribution<size_t> pick(0, buffer.size() - 1);
  std::vector<torch::Tensor> s, ns;
  std::vector<int64_t> a;
  std::vector<float> r, d;
  for (int64_t i = 0; i < n; ++i) {
    const auto& t = buffer[pick(rng)];
    s.push_back(t.state);
    ns.push_back(t.next_state);
    a.push_back(t.action);
    r.push_back(t.reward);
    d.push_back(t.done ? 1.f : 0.f);
  }
  Batch b;
  b.states = torch::stack(s);
  b.states.to(device);  // BUG(device-discarded-to): result dropped; b.states stays on the CPU
  b.next_states = torch::stack(ns).to(device);
  b.actions = torch::tensor(a).to(device);
  b.rewards = torch::tensor(r).to(device);
  b.dones = torch::tensor(d).to(device);
  return b;
}

void update(QNet& online, QNet& target, torch::optim::Optimizer& opt, const Batch& b, double gamma) {
  auto q = online->forward(b.states).gather(1, b.actions.unsqueeze(1)).squeeze(1);
  torch::Tensor next_q;
  {
    torch::NoGradGuard no_grad;
    next_q = std::get<0>(target->forward(b.next_states).max(1));
  }
  auto expected = b.rewards + gamma * next_q * (1 - b.dones);
  auto loss = torch::smooth_l1_loss(q, expected);
  opt.zero_grad();
  loss.backward();
  opt.step();
}

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  QNet online(4, 2), target(4, 2);
  online->to(device);
  target->to(device);
  torch::optim::Adam opt(online->parameters(), 1e-3);
  std::deque<Transition> buffer;
  std::mt19937 rng(0);
  for (int i = 0; i < 256; ++i) {
    buffer.push_back({torch::randn({4}), torch::randn({4}), i % 2, 1.0f, i % 50 == 49});
  }
  for (int step = 0; step < 100; ++step) {
    update(online, target, opt, sample(buffer, 32, rng, device), 0.99);
  }
}
