// PPO with a shared actor-critic trunk on a batched, device-resident "reach the goal"
// environment. Rollouts are collected without autograd; minibatch updates follow.
#include <torch/torch.h>

#include <cstdio>
#include <vector>

struct ActorCriticImpl : torch::nn::Module {
  ActorCriticImpl(int64_t obs_dim, int64_t n_actions)
      : trunk(register_module("trunk", torch::nn::Sequential(torch::nn::Linear(obs_dim, 128), torch::nn::Tanh(),
                                                             torch::nn::Linear(128, 128), torch::nn::Tanh()))),
        pi(register_module("pi", torch::nn::Linear(128, n_actions))),
        v(register_module("v", torch::nn::Linear(128, 1))) {}
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& obs) {
    auto h = trunk->forward(obs);
    return {pi->forward(h), v->forward(h).squeeze(-1)};
  }
  torch::nn::Sequential trunk;
  torch::nn::Linear pi, v;
};
TORCH_MODULE(ActorCritic);

struct GoalEnv {  // agents and goals on a 2-D plane; 4 discrete moves
  GoalEnv(int64_t n, torch::Device d) : n(n), o(torch::TensorOptions().device(d)) {
    moves = torch::tensor({0.1f, 0.f, -0.1f, 0.f, 0.f, 0.1f, 0.f, -0.1f}, o).view({4, 2});
    agent = torch::zeros({n, 2}, o);
    goal = torch::rand({n, 2}, o) * 2 - 1;
  }
  torch::Tensor obs() const { return torch::cat({agent, goal - agent}, 1); }
  std::pair<torch::Tensor, torch::Tensor> step(const torch::Tensor& a) {
    agent = agent + moves.index_select(0, a);
    auto dist = (goal - agent).norm(2, 1);
    auto done = dist < 0.1;
    goal = torch::where(done.unsqueeze(1), torch::rand_like(goal) * 2 - 1, goal);
    agent = torch::where(done.unsqueeze(1), torch::zeros_like(agent), agent);
    return {-dist, done.to(torch::kFloat)};
  }
  int64_t n;
  torch::TensorOptions o;
  torch::Tensor moves, agent, goal;
};

struct Rollout {
  std::vector<torch::Tensor> obs, actions, logp, values, rewards, dones;
};

static Rollout collect(ActorCritic& ac, GoalEnv& env, int steps) {
  Rollout r;
  for (int t = 0; t < steps; ++t) {
    auto o = env.obs();
    auto [logits, value] = ac->forward(o);
    auto action = torch::multinomial(torch::softmax(logits, -1), 1).squeeze(1);
    auto lp = torch::log_softmax(logits, -1).gather(1, action.unsqueeze(1)).squeeze(1);
    auto [rew, done] = env.step(action);
    r.obs.push_back(o); r.actions.push_back(action); r.logp.push_back(lp);
    r.values.push_back(value); r.rewards.push_back(rew); r.dones.push_back(done);
  }
  return r;
}

static void apply_update(torch::optim::Optimizer& opt, const std::vector<torch::Tensor>& params, double max_norm) {
  torch::nn::utils::clip_grad_norm_(params, max_norm);
  opt.step();
  opt.zero_grad();  // the helper clears what it applied
}

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  GoalEnv env(64, device);
  ActorCritic ac(4, 4);
  ac->to(device);
  torch::optim::Adam opt(ac->parameters(), torch::optim::AdamOptions(3e-4));

  for (int iter = 0; iter < 500; ++iter) {
    Rollout r;
    {
      torch::NoGradGuard no_grad;  // collect() runs under the caller's guard
      r = collect(ac, env, 128);
    }
    auto values = torch::stack(r.values), rewards = torch::stack(r.rewards), dones = torch::stack(r.dones);
    auto adv = torch::zeros_like(rewards);
    auto last = torch::zeros_like(rewards[0]);
    for (int64_t t = rewards.size(0) - 1; t >= 0; --t) {
      auto next_v = t + 1 < rewards.size(0) ? values[t + 1] : torch::zeros_like(values[t]);
      auto delta = rewards[t] + 0.99 * next_v * (1 - dones[t]) - values[t];
      last = delta + 0.99 * 0.95 * (1 - dones[t]) * last;
      adv[t] = last;
    }
    auto returns = (adv + values).flatten();
    adv = ((adv - adv.mean()) / (adv.std() + 1e-8)).flatten();
    auto obs = torch::cat(r.obs), actions = torch::cat(r.actions), old_logp = torch::cat(r.logp);

    for (int epoch = 0; epoch < 4; ++epoch) {
      auto perm = torch::randperm(obs.size(0), torch::TensorOptions().dtype(torch::kLong).device(device));
      for (int64_t i = 0; i < perm.size(0); i += 1024) {
        auto mb = perm.narrow(0, i, std::min<int64_t>(1024, perm.size(0) - i));
        auto [logits, value] = ac->forward(obs.index_select(0, mb));
        auto logp = torch::log_softmax(logits, -1).gather(1, actions.index_select(0, mb).unsqueeze(1)).squeeze(1);
        auto ratio = torch::exp(logp - old_logp.index_select(0, mb));
        auto a = adv.index_select(0, mb);
        auto pg = -torch::min(ratio * a, torch::clamp(ratio, 0.8, 1.2) * a).mean();
        auto vf = torch::mse_loss(value, returns.index_select(0, mb));
        auto loss = pg + 0.5 * vf;
        if (!torch::isfinite(loss).item<bool>()) continue;  // the iteration branches on it: a necessary sync (issue 24), reported with device-sync-in-loop.ReportNecessary
        loss.backward();
        apply_update(opt, ac->parameters(), 0.5);
      }
    }
    if (iter % 20 == 0) std::printf("iter %d mean reward %.3f\n", iter, rewards.mean().item<float>());
  }
}
