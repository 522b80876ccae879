// Soft actor-critic on a batched pendulum simulated on the training device.
#include "sac_buffer.h"
#include "sac_nets.h"

#include <cmath>
#include <cstdio>

struct Pendulums {  // N pendulums; state (theta, theta_dot); observation (cos, sin, theta_dot)
  Pendulums(int64_t n, torch::Device d) : opts(torch::TensorOptions().device(d)) { reset(n); }
  void reset(int64_t n) {
    th = (torch::rand({n}, opts) * 2 - 1) * M_PI;
    th_dot = torch::zeros({n}, opts);
    t = torch::zeros({n}, opts);
  }
  torch::Tensor obs() const { return torch::stack({th.cos(), th.sin(), th_dot}, 1); }
  std::pair<torch::Tensor, torch::Tensor> step(const torch::Tensor& u) {
    auto torque = 2.0 * u.squeeze(1);
    auto angle = torch::remainder(th + M_PI, 2 * M_PI) - M_PI;
    auto cost = angle.pow(2) + 0.1 * th_dot.pow(2) + 0.001 * torque.pow(2);
    th_dot = (th_dot + (3 * 10.0 / 2 * th.sin() + 3.0 * torque) * 0.05).clamp(-8, 8);
    th = th + th_dot * 0.05;
    t = t + 1;
    auto done = (t >= 200).to(torch::kFloat);
    return {-cost, done};
  }
  torch::TensorOptions opts;
  torch::Tensor th, th_dot, t;
};

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  const int64_t obs_dim = 3, act_dim = 1, n_envs = 16;
  GaussianPolicy policy(obs_dim, act_dim, 256);
  TwinQ q(obs_dim, act_dim, 256), q_target(obs_dim, act_dim, 256);
  policy->to(device);
  q->to(device);
  q_target->to(device);
  {
    torch::NoGradGuard no_grad;
    auto src = q->parameters(), dst = q_target->parameters();
    for (size_t i = 0; i < src.size(); ++i) dst[i].copy_(src[i]);
  }
  auto log_alpha = torch::tensor({std::log(0.2f)}, torch::requires_grad()).to(device);  // BUG(device-mid-graph-to): on a GPU this is a copy of the leaf: alpha_opt cannot optimise it (not a leaf, no grad)
  torch::optim::Adam pi_opt(policy->parameters(), torch::optim::AdamOptions(3e-4));
  torch::optim::Adam q_opt(q->parameters(), torch::optim::AdamOptions(3e-4));
  torch::optim::Adam alpha_opt({log_alpha}, torch::optim::AdamOptions(3e-4));

  Pendulums env(n_envs, device);
  ReplayBuffer buffer(200000, obs_dim, act_dim);
  ObsNormalizer norm;
  auto episode_return = torch::zeros({n_envs}, env.opts);
  for (int64_t t = 0; t < 100000; ++t) {
    auto obs = env.obs();
    norm.update(obs);
    if (t % 1000 == 0) {  // drift monitor: how far today's observations are from the running statistics
      auto z = ((obs - norm.mean()) / norm.stddev()).abs().amax();  // BUG(device-mismatch): ObsNormalizer::mean()/stddev() return host copies (.to(kCPU) in sac_buffer.cpp); obs is on the device
      std::printf("t=%lld max |z| %.2f\n", static_cast<long long>(t), z.item<float>());
    }
    torch::Tensor action;
    {
      torch::NoGradGuard no_grad;
      action = policy->forward(obs).first;
    }
    auto [reward, done] = env.step(action);
    buffer.add(obs, action, reward, env.obs(), done);
    episode_return = episode_return + reward;
    if (t % 200 == 199) {
      buffer.record_returns(episode_return);
      episode_return = torch::zeros_like(episode_return);
      env.reset(n_envs);
    }
    if (buffer.size() < 5000) continue;

    Batch b = to_device(buffer.sample(256), device);
    torch::Tensor target;
    {
      torch::NoGradGuard no_grad;
      auto [next_a, next_logp] = policy->forward(b.next_obs);  // BUG(device-unmoved-input): to_device() in sac_buffer.cpp leaves next_obs in host memory; the policy is on the device
      auto [tq1, tq2] = q_target->forward(b.next_obs.to(device), next_a);
      target = b.rew + 0.99 * (1 - b.done) * (torch::min(tq1, tq2) - log_alpha.exp() * next_logp);
    }
    auto [q1, q2] = q->forward(b.obs, b.act);
    auto q_loss = torch::mse_loss(q1, target) + torch::mse_loss(q2, target);
    q_opt.zero_grad();
    q_loss.backward();
    q_opt.step();

    auto [a, logp] = policy->forward(b.obs);
    auto [pq1, pq2] = q->forward(b.obs, a);
    auto pi_loss = (log_alpha.exp().detach() * logp - torch::min(pq1, pq2)).mean();
    pi_opt.zero_grad();
    pi_loss.backward();
    pi_opt.step();

    auto alpha_loss = -(log_alpha * (logp.detach() - static_cast<double>(act_dim))).mean();
    alpha_opt.zero_grad();
    alpha_loss.backward();
    alpha_opt.step();

    torch::NoGradGuard no_grad;
    auto src = q->parameters(), dst = q_target->parameters();
    for (size_t i = 0; i < src.size(); ++i) dst[i].mul_(0.995).add_(src[i], 0.005);
  }
  const auto& hist = buffer.return_history();
  if (!hist.empty()) std::printf("last episode return %.1f\n", hist.back());
}
