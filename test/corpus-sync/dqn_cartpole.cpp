// DQN on a toy cart-pole written in plain C++ (host physics). The agent acts epsilon-greedily,
// stores transitions in a host replay buffer and learns from device minibatches.
#include <torch/torch.h>

#include <array>
#include <cmath>
#include <deque>
#include <iostream>
#include <random>
#include <vector>

struct CartPole {
  std::array<float, 4> s{};
  int t = 0;
  std::array<float, 4> reset() { s = {0.f, 0.f, 0.02f, 0.f}; t = 0; return s; }
  // Host simulation: takes a plain integer action.
  std::array<float, 4> step(int64_t action, float& reward, bool& done) {
    float force = action == 1 ? 10.f : -10.f;
    float acc = (force + 0.05f * s[3] * s[3] * std::sin(s[2])) / 1.1f;
    float ang_acc = (9.8f * std::sin(s[2]) - std::cos(s[2]) * acc) / (0.5f * (4.f / 3.f - 0.1f / 1.1f));
    s[0] += 0.02f * s[1]; s[1] += 0.02f * acc; s[2] += 0.02f * s[3]; s[3] += 0.02f * ang_acc;
    done = std::fabs(s[0]) > 2.4f || std::fabs(s[2]) > 0.21f || ++t >= 500;
    reward = 1.f;
    return s;
  }
};

struct Transition { std::array<float, 4> s, s2; int64_t a; float r; bool done; };

torch::nn::Sequential q_net() {
  return torch::nn::Sequential(torch::nn::Linear(4, 128), torch::nn::ReLU(), torch::nn::Linear(128, 2));
}

torch::Tensor to_tensor(const std::vector<std::array<float, 4>>& rows, const torch::Device& device) {
  auto t = torch::empty({static_cast<int64_t>(rows.size()), 4});
  for (size_t i = 0; i < rows.size(); ++i)
    for (int j = 0; j < 4; ++j) t[i][j] = rows[i][j];
  return t.to(device);
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto online = q_net(), target = q_net();
  online->to(device);
  target->to(device);
  torch::optim::Adam opt(online->parameters(), torch::optim::AdamOptions(5e-4));
  std::deque<Transition> replay;
  std::mt19937 rng(0);
  CartPole env;
  std::vector<float> loss_log;
  const float gamma = 0.99f;
  int64_t global_step = 0;

  for (int episode = 0; episode < 300; ++episode) {
    auto obs = env.reset();
    bool done = false;
    float episode_return = 0.f;
    while (!done) {
      float eps = std::max(0.05f, 1.f - global_step / 10000.f);
      int64_t action;
      // torch::rand without a device: a CPU scalar, reading it is no synchronisation.
      if (torch::rand({1}).item<float>() < eps) {  // SYNC(cpu): host random number, no device involved
        action = std::uniform_int_distribution<int>(0, 1)(rng);
      } else {
        torch::NoGradGuard no_grad;
        auto q = online->forward(to_tensor({obs}, device));
        action = q.argmax(1).item<int64_t>();  // SYNC(necessary): the host environment needs the action to step
      }
      float reward;
      auto next = env.step(action, reward, done);
      replay.push_back({obs, next, action, reward, done});
      if (replay.size() > 50000) replay.pop_front();
      obs = next;
      episode_return += reward;
      ++global_step;

      if (replay.size() >= 1000) {
        std::vector<std::array<float, 4>> s, s2;
        std::vector<int64_t> a;
        std::vector<float> r, d;
        for (int i = 0; i < 64; ++i) {
          const auto& tr = replay[std::uniform_int_distribution<size_t>(0, replay.size() - 1)(rng)];
          s.push_back(tr.s); s2.push_back(tr.s2); a.push_back(tr.a); r.push_back(tr.r); d.push_back(tr.done);
        }
        auto S = to_tensor(s, device), S2 = to_tensor(s2, device);
        auto A = torch::tensor(a).to(device), R = torch::tensor(r).to(device), D = torch::tensor(d).to(device);
        auto q_sa = online->forward(S).gather(1, A.unsqueeze(1)).squeeze(1);
        torch::Tensor y;
        {
          torch::NoGradGuard no_grad;
          y = R + gamma * (1 - D) * std::get<0>(target->forward(S2).max(1));
        }
        auto loss = torch::smooth_l1_loss(q_sa, y);
        opt.zero_grad();
        loss.backward();
        opt.step();
        loss_log.push_back(loss.item<float>());  // BUG(device-sync-in-loop): avoidable: the log is only averaged after training
        if (global_step % 1000 == 0) {
          auto src = online->parameters(), dst = target->parameters();
          torch::NoGradGuard no_grad;
          for (size_t i = 0; i < src.size(); ++i) dst[i].copy_(src[i]);
        }
      }
    }
    std::cout << "episode " << episode << " return " << episode_return << '\n';
  }
  // Average max-Q on a fixed set of held-out states, the usual DQN learning-progress curve.
  std::vector<std::array<float, 4>> probe_states;
  std::uniform_real_distribution<float> u(-0.05f, 0.05f);
  for (int i = 0; i < 512; ++i) probe_states.push_back({u(rng), u(rng), u(rng), u(rng)});
  auto probe = to_tensor(probe_states, device);
  std::vector<double> avg_q;
  {
    torch::NoGradGuard no_grad;
    for (int64_t s = 0; s < probe.size(0); s += 128) {
      auto q = online->forward(probe.slice(0, s, s + 128));
      avg_q.push_back(std::get<0>(q.max(1)).mean().item().to<double>());  // BUG(device-sync-in-loop): avoidable: per-chunk means only printed after the loop
    }
  }
  for (double v : avg_q) std::cout << "avg max-Q " << v << '\n';
  double mean = 0;
  for (float l : loss_log) mean += l;
  std::cout << "mean TD loss " << mean / std::max<size_t>(1, loss_log.size()) << '\n';
  return 0;
}
