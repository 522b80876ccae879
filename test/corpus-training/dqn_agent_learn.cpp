// DQN on a batched point-mass environment whose state lives on the training device
// (a GPU-simulated env: actions and observations never leave the device).
#include <torch/torch.h>

#include <cstdio>
#include <tuple>

struct PointMassEnv {
  PointMassEnv(int64_t n, torch::Device d) : opts(torch::TensorOptions().device(d)) {
    pos = torch::rand({n}, opts) * 2 - 1;
    vel = torch::zeros({n}, opts);
  }
  torch::Tensor observe() const { return torch::stack({pos, vel}, 1); }
  // action 0/1/2: push left / nothing / push right
  std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> step(const torch::Tensor& action) {
    vel = 0.95 * vel + 0.05 * (action.to(torch::kFloat) - 1);
    pos = pos + vel;
    auto reward = -pos.abs();
    auto done = (pos.abs() > 2).to(torch::kFloat);
    pos = torch::where(done.to(torch::kBool), torch::rand_like(pos) * 2 - 1, pos);
    vel = vel * (1 - done);
    return {observe(), reward, done};
  }
  torch::TensorOptions opts;
  torch::Tensor pos, vel;
};

struct Replay {
  Replay(int64_t cap, torch::Device d) : capacity(cap), opts(torch::TensorOptions().device(d)) {
    obs = torch::zeros({cap, 2}, opts);
    next_obs = torch::zeros({cap, 2}, opts);
    action = torch::zeros({cap}, opts.dtype(torch::kLong));
    reward = torch::zeros({cap}, opts);
    done = torch::zeros({cap}, opts);
  }
  void push(const torch::Tensor& o, const torch::Tensor& a, const torch::Tensor& r, const torch::Tensor& o2,
            const torch::Tensor& d) {
    auto idx = (torch::arange(o.size(0), opts.dtype(torch::kLong)) + head) % capacity;
    obs.index_copy_(0, idx, o);
    action.index_copy_(0, idx, a);
    reward.index_copy_(0, idx, r);
    next_obs.index_copy_(0, idx, o2);
    done.index_copy_(0, idx, d);
    head = (head + o.size(0)) % capacity;
    filled = std::min(filled + o.size(0), capacity);
  }
  auto sample(int64_t n) const {
    auto idx = torch::randint(0, filled, {n}, opts.dtype(torch::kLong));
    return std::make_tuple(obs.index_select(0, idx), action.index_select(0, idx), reward.index_select(0, idx),
                           next_obs.index_select(0, idx), done.index_select(0, idx));
  }
  int64_t capacity, head = 0, filled = 0;
  torch::TensorOptions opts;
  torch::Tensor obs, next_obs, action, reward, done;
};

static torch::nn::Sequential q_net() {
  return torch::nn::Sequential(torch::nn::Linear(2, 64), torch::nn::ReLU(), torch::nn::Linear(64, 64),
                               torch::nn::ReLU(), torch::nn::Linear(64, 3));
}

class Agent {
 public:
  explicit Agent(torch::Device d) : online_(q_net()), target_(q_net()), opt_(online_->parameters(), 5e-4) {
    online_->to(d);
    target_->to(d);
    sync_target();
  }
  torch::Tensor act(const torch::Tensor& obs, double eps) {
    torch::NoGradGuard no_grad;
    auto greedy = online_->forward(obs).argmax(1);
    auto random = torch::randint_like(greedy, 3);
    return torch::where(torch::rand_like(obs.select(1, 0)) < eps, random, greedy);
  }
  void learn(const Replay& buffer) {
    auto [o, a, r, o2, d] = buffer.sample(256);
    auto q = online_->forward(o).gather(1, a.unsqueeze(1)).squeeze(1);
    torch::Tensor target;
    {
      torch::NoGradGuard no_grad;
      target = r + 0.99 * (1 - d) * std::get<0>(target_->forward(o2).max(1));
    }
    auto loss = torch::smooth_l1_loss(q, target);
    loss.backward();
    torch::nn::utils::clip_grad_norm_(online_->parameters(), 10.0);
    opt_.step();  // BUG(training-missing-zero-grad): learn() is called every environment step and no code zeroes opt_ or online_, so the gradients of all past updates pile up
    if (++updates_ % 1000 == 0) sync_target();
  }

 private:
  void sync_target() {
    torch::NoGradGuard no_grad;
    auto src = online_->parameters();
    auto dst = target_->parameters();
    for (size_t i = 0; i < src.size(); ++i) dst[i].copy_(src[i]);
  }
  torch::nn::Sequential online_, target_;
  torch::optim::Adam opt_;
  int64_t updates_ = 0;
};

int main() {
  const torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  PointMassEnv env(64, device);
  Replay buffer(100000, device);
  Agent agent(device);
  auto obs = env.observe();
  for (int64_t t = 0; t < 50000; ++t) {
    const double eps = std::max(0.05, 1.0 - static_cast<double>(t) / 20000.0);
    auto action = agent.act(obs, eps);
    auto [next_obs, reward, done] = env.step(action);
    buffer.push(obs, action, reward, next_obs, done);
    obs = next_obs;
    if (t >= 1000) agent.learn(buffer);
    if (t % 1000 == 0) std::printf("t=%lld mean reward %.3f\n", static_cast<long long>(t), reward.mean().item<float>());
  }
}
