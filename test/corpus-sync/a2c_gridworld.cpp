// A2C on a batch of host grid-world environments: actions sampled on the device for all
// environments at once, n-step returns, and a greedy evaluation episode at the end.
#include <torch/torch.h>

#include <iostream>
#include <vector>

class GridWorld {
 public:
  explicit GridWorld(int size) : size_(size) { reset(); }
  void reset() { x_ = 0; y_ = 0; }
  std::vector<float> observe() const {
    std::vector<float> o(size_ * size_, 0.f);
    o[y_ * size_ + x_] = 1.f;
    return o;
  }
  // Host-side transition: 0 up, 1 down, 2 left, 3 right.
  float step(int64_t a, bool& done) {
    if (a == 0 && y_ > 0) --y_;
    if (a == 1 && y_ < size_ - 1) ++y_;
    if (a == 2 && x_ > 0) --x_;
    if (a == 3 && x_ < size_ - 1) ++x_;
    done = x_ == size_ - 1 && y_ == size_ - 1;
    return done ? 1.f : -0.01f;
  }

 private:
  int size_, x_ = 0, y_ = 0;
};

struct PolicyImpl : torch::nn::Module {
  explicit PolicyImpl(int64_t in)
      : trunk(register_module("trunk", torch::nn::Linear(in, 64))),
        pi(register_module("pi", torch::nn::Linear(64, 4))),
        v(register_module("v", torch::nn::Linear(64, 1))) {}
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& x) {
    auto h = torch::relu(trunk(x));
    return {pi(h), v(h).squeeze(-1)};
  }
  torch::nn::Linear trunk, pi, v;
};
TORCH_MODULE(Policy);

torch::Tensor observe_all(const std::vector<GridWorld>& envs, const torch::Device& device) {
  std::vector<torch::Tensor> rows;
  for (const auto& e : envs) rows.push_back(torch::tensor(e.observe()));
  return torch::stack(rows).to(device);
}

int main() {
  const int n_envs = 16, size = 5, n_steps = 5;
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  std::vector<GridWorld> envs(n_envs, GridWorld(size));
  Policy policy(size * size);
  policy->to(device);
  torch::optim::RMSprop opt(policy->parameters(), torch::optim::RMSpropOptions(7e-4));

  for (int update = 0; update < 5000; ++update) {
    std::vector<torch::Tensor> logps, values, entropies, rewards, masks;
    for (int t = 0; t < n_steps; ++t) {
      auto [logits, value] = policy->forward(observe_all(envs, device));
      auto probs = torch::softmax(logits, -1);
      auto actions = probs.multinomial(1).squeeze(1);
      auto actions_host = actions.cpu();  // SYNC(necessary): every host environment needs its action to step
      auto acc = actions_host.accessor<int64_t, 1>();  // SYNC(cpu): reads the host copy made on the line above
      std::vector<float> r(n_envs), m(n_envs);
      for (int i = 0; i < n_envs; ++i) {
        bool done = false;
        r[i] = envs[i].step(acc[i], done);  // SYNC(cpu): an accessor of the host copy made above, no further sync
        m[i] = done ? 0.f : 1.f;
        if (done) envs[i].reset();
      }
      logps.push_back(torch::log_softmax(logits, -1).gather(1, actions.unsqueeze(1)).squeeze(1));
      values.push_back(value);
      entropies.push_back(-(probs * torch::log_softmax(logits, -1)).sum(-1));
      rewards.push_back(torch::tensor(r).to(device));
      masks.push_back(torch::tensor(m).to(device));
    }
    torch::Tensor R;
    {
      torch::NoGradGuard no_grad;
      R = policy->forward(observe_all(envs, device)).second;
    }
    std::vector<torch::Tensor> returns(n_steps);
    for (int t = n_steps - 1; t >= 0; --t) {
      R = rewards[t] + 0.99 * R * masks[t];
      returns[t] = R;
    }
    auto adv = torch::stack(returns) - torch::stack(values);
    auto entropy = torch::stack(entropies).mean();
    auto loss = -(torch::stack(logps) * adv.detach()).mean() + 0.5 * adv.pow(2).mean() - 0.01 * entropy;
    opt.zero_grad();
    loss.backward();
    opt.step();
    std::cout << "update " << update << " entropy " << entropy.detach() << '\n';  // BUG(device-sync-in-loop): avoidable: a device scalar printed after every update
    if (update % 500 == 0) {
      std::cout << "update " << update << " loss " << loss.item<float>() << '\n';  // SYNC(rare): every 500 updates
    }
  }

  // Greedy evaluation episode.
  torch::NoGradGuard no_grad;
  GridWorld env(size);
  bool done = false;
  float ret = 0.f;
  for (int t = 0; t < 100 && !done; ++t) {
    auto obs = torch::tensor(env.observe()).to(device).unsqueeze(0);
    int64_t a = policy->forward(obs).first.argmax(-1).item<int64_t>();  // SYNC(necessary): the greedy action drives the host environment
    ret += env.step(a, done);
  }
  std::cout << "greedy return " << ret << '\n';
  return 0;
}
