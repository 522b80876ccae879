// PPO with a Gaussian policy on a host pendulum simulator: rollout, GAE on the host, then
// clipped-objective epochs with a KL early stop.
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <vector>

struct Pendulum {
  float theta = 0.5f, omega = 0.f;
  std::vector<float> obs() const { return {std::cos(theta), std::sin(theta), omega}; }
  float step(const std::vector<float>& action) {  // host code, not LibTorch
    float u = std::max(-2.f, std::min(2.f, action[0]));
    omega += (-3.f * 9.8f / 2.f * std::sin(theta + 3.14159f) + 3.f * u) * 0.05f;
    theta += omega * 0.05f;
    return -(theta * theta + 0.1f * omega * omega + 0.001f * u * u);
  }
};

struct ActorCriticImpl : torch::nn::Module {
  ActorCriticImpl()
      : body(register_module("body", torch::nn::Linear(3, 64))),
        mu(register_module("mu", torch::nn::Linear(64, 1))),
        v(register_module("v", torch::nn::Linear(64, 1))) {
    log_std = register_parameter("log_std", torch::full({1}, -0.5));
  }
  std::pair<torch::Tensor, torch::Tensor> forward(torch::Tensor x) {
    auto h = torch::tanh(body(x));
    return {mu(h), v(h).squeeze(-1)};
  }
  torch::nn::Linear body, mu, v;
  torch::Tensor log_std;
};
TORCH_MODULE(ActorCritic);

torch::Tensor log_prob(const torch::Tensor& a, const torch::Tensor& mu, const torch::Tensor& log_std) {
  return (-0.5 * ((a - mu) / log_std.exp()).pow(2) - log_std - 0.9189385).sum(-1);
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  ActorCritic ac;
  ac->to(device);
  torch::optim::Adam opt(ac->parameters(), torch::optim::AdamOptions(3e-4));
  const int horizon = 2048, epochs = 10, minibatch = 256;
  const float gamma = 0.99f, lam = 0.95f, clip = 0.2f, target_kl = 0.015f;

  for (int iteration = 0; iteration < 100; ++iteration) {
    Pendulum env;
    std::vector<torch::Tensor> obs_buf, act_buf, logp_buf;
    std::vector<float> rewards, values_host;
    {
      torch::NoGradGuard no_grad;
      for (int t = 0; t < horizon; ++t) {
        auto o = torch::tensor(env.obs()).to(device).unsqueeze(0);
        auto [mu, value] = ac->forward(o);
        auto action = mu + ac->log_std.exp() * torch::randn_like(mu);
        auto action_host = action.to(torch::kCPU);  // SYNC(necessary): the simulator steps on host floats now
        std::vector<float> a(action_host.data_ptr<float>(), action_host.data_ptr<float>() + action_host.numel());  // SYNC(cpu): reads the host copy made on the line above
        rewards.push_back(env.step(a));
        values_host.push_back(value.item<float>());  // BUG(device-sync-in-loop): avoidable: values are only used by GAE after the rollout (a stack + one copy would do)
        obs_buf.push_back(o);
        act_buf.push_back(action);
        logp_buf.push_back(log_prob(action, mu, ac->log_std));
      }
    }
    // Generalised advantage estimation on the host, after the rollout.
    std::vector<float> adv(horizon), ret(horizon);
    float gae = 0.f;
    for (int t = horizon - 1; t >= 0; --t) {
      float next_v = t + 1 < horizon ? values_host[t + 1] : 0.f;
      float delta = rewards[t] + gamma * next_v - values_host[t];
      gae = delta + gamma * lam * gae;
      adv[t] = gae;
      ret[t] = gae + values_host[t];
    }
    auto O = torch::cat(obs_buf), A = torch::cat(act_buf), old_logp = torch::cat(logp_buf);
    auto ADV = torch::tensor(adv).to(device), RET = torch::tensor(ret).to(device);
    ADV = (ADV - ADV.mean()) / (ADV.std() + 1e-8);

    float clip_frac_sum = 0.f;
    int updates = 0;
    bool stop = false;
    for (int epoch = 0; epoch < epochs && !stop; ++epoch) {
      auto perm = torch::randperm(horizon, torch::TensorOptions().device(device).dtype(torch::kLong));
      for (int start = 0; start < horizon; start += minibatch) {
        auto idx = perm.slice(0, start, start + minibatch);
        auto [mu, value] = ac->forward(O.index_select(0, idx));
        auto logp = log_prob(A.index_select(0, idx), mu, ac->log_std);
        auto ratio = (logp - old_logp.index_select(0, idx)).exp();
        auto approx_kl = (old_logp.index_select(0, idx) - logp).mean();
        if (approx_kl.item<float>() > 1.5f * target_kl) {  // SYNC(necessary): KL early stop ends the update now
          stop = true;
          break;
        }
        auto a = ADV.index_select(0, idx);
        auto pg = -torch::min(ratio * a, ratio.clamp(1 - clip, 1 + clip) * a).mean();
        auto vf = torch::mse_loss(value, RET.index_select(0, idx));
        opt.zero_grad();
        (pg + 0.5 * vf).backward();
        opt.step();
        clip_frac_sum += (ratio - 1).abs().gt(clip).to(torch::kFloat).mean().item<float>();  // BUG(device-sync-in-loop): avoidable: a diagnostic summed on the host, printed after the epochs
        ++updates;
      }
    }
    float mean_reward = 0.f;
    for (float r : rewards) mean_reward += r / horizon;
    std::cout << "iter " << iteration << " reward " << mean_reward << " clipfrac "
              << clip_frac_sum / std::max(1, updates) << '\n';
  }
  return 0;
}
