// PPO for a continuous-control task: rollout, GAE on the host, clipped surrogate objective.
#include <torch/torch.h>

#include <cmath>
#include <tuple>
#include <vector>

struct ActorCriticImpl : torch::nn::Module {
  ActorCriticImpl(int64_t obs, int64_t act) {
    body = register_module("body", torch::nn::Sequential(torch::nn::Linear(obs, 64), torch::nn::Tanh(),
                                                          torch::nn::Linear(64, 64), torch::nn::Tanh()));
    mu = register_module("mu", torch::nn::Linear(64, act));
    value = register_module("value", torch::nn::Linear(64, 1));
    log_std = register_parameter("log_std", torch::zeros({act}));
  }
  std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> forward(torch::Tensor obs) {
    auto h = body->forward(obs);
    auto m = mu(h);
    return std::make_tuple(m, log_std.exp().expand_as(m), value(h).squeeze(-1));
  }
  torch::nn::Sequential body{nullptr};
  torch::nn::Linear mu{nullptr}, value{nullptr};
  torch::Tensor log_std;
};
TORCH_MODULE(ActorCritic);

torch::Tensor gaussian_log_prob(const torch::Tensor& a, const torch::Tensor& mu, const torch::Tensor& std) {
  auto var = std.pow(2);
  return (-(a - mu).pow(2) / (2 * var) - std.log() - 0.5 * std::log(2 * M_PI)).sum(-1);
}

// values: [T + 1] on the policy's device, the bootstrap value last.
torch::Tensor compute_gae(const std::vector<float>& rewards, const std::vector<float>& dones,
                          const torch::Tensor& values, float gamma, float lambda) {
  auto v = values.detach().cpu();
  auto va = v.accessor<float, 1>();
  std::vector<float> adv(rewards.size());
  float gae = 0.f;
  for (int64_t t = static_cast<int64_t>(rewards.size()) - 1; t >= 0; --t) {
    float delta = rewards[t] + gamma * va[t + 1] * (1.f - dones[t]) - va[t];
    gae = delta + gamma * lambda * (1.f - dones[t]) * gae;
    adv[t] = gae;
  }
  return torch::tensor(adv);  // BUG(device-factory-without-device): 1-D CPU advantages; the caller adds them to the device value estimates
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t obs_dim = 8, act_dim = 2, horizon = 256;
  ActorCritic net(obs_dim, act_dim);
  net->to(device);
  torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(3e-4));

  // observation statistics from a warm-up phase, kept on the host
  auto warmup = torch::randn({1000, obs_dim});
  auto obs_mean = warmup.mean(0);
  auto obs_std = warmup.std(0) + 1e-6;

  for (int iter = 0; iter < 100; ++iter) {
    std::vector<torch::Tensor> obs_buf, act_buf, logp_buf, val_buf;
    std::vector<float> rewards, dones;
    auto obs = torch::randn({obs_dim});
    {
      torch::NoGradGuard no_grad;
      for (int64_t t = 0; t < horizon; ++t) {
        auto x = (obs.to(device) - obs_mean.to(device)) / obs_std.to(device);  // BUG(device-loop-invariant-to): obs_mean/obs_std never change, yet are copied to the device every step
        torch::Tensor mu, std, v;
        std::tie(mu, std, v) = net->forward(x.unsqueeze(0));
        auto a = mu + std * torch::randn_like(mu);
        obs_buf.push_back(x);
        act_buf.push_back(a.squeeze(0));
        logp_buf.push_back(gaussian_log_prob(a, mu, std).squeeze(0));
        val_buf.push_back(v.squeeze(0));
        rewards.push_back(-a.pow(2).sum().item<float>());
        dones.push_back(t == horizon - 1 ? 1.f : 0.f);
        obs = torch::randn({obs_dim});
      }
      val_buf.push_back(torch::zeros({}, torch::device(device)));
    }
    auto values = torch::stack(val_buf);
    auto advantages = compute_gae(rewards, dones, values, 0.99f, 0.95f);
    auto returns = advantages + values.slice(0, 0, horizon);
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8);

    auto states = torch::stack(obs_buf);
    auto actions = torch::stack(act_buf);
    auto old_logp = torch::stack(logp_buf);
    auto adv_dev = advantages.to(device);
    for (int epoch = 0; epoch < 4; ++epoch) {
      torch::Tensor mu, std, v;
      std::tie(mu, std, v) = net->forward(states);
      auto logp = gaussian_log_prob(actions, mu, std);
      auto ratio = (logp - old_logp).exp();
      auto surr1 = ratio * adv_dev;
      auto surr2 = torch::clamp(ratio, 0.8, 1.2) * adv_dev;
      auto policy_loss = -torch::min(surr1, surr2).mean();
      auto value_loss = torch::mse_loss(v, returns.detach());
      auto loss = policy_loss + 0.5 * value_loss;
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
  }
}
