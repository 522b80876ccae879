// Learnable scalars of an off-policy agent: the SAC entropy temperature and a
// per-action-dimension log-std, created as leaves for their own optimizers.
#include <torch/torch.h>

#include <cstdio>
#include <vector>

static torch::Tensor make_log_std(int64_t action_dim, torch::Device device) {
  return torch::full({action_dim}, -0.5, torch::requires_grad()).to(device);  // BUG(device-mid-graph-to): on a GPU the result is a copy of the leaf, not a leaf: main() hands it to Adam, which rejects it (and it would never receive a grad)
}

static torch::Tensor make_log_std_ok(int64_t action_dim, torch::Device device) {
  return torch::full({action_dim}, -0.5, torch::TensorOptions().device(device).requires_grad(true));
}

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  const int64_t obs_dim = 17, action_dim = 6;
  auto actor = torch::nn::Sequential(torch::nn::Linear(obs_dim, 256), torch::nn::ReLU(), torch::nn::Linear(256, action_dim));
  actor->to(device);

  auto log_alpha = torch::zeros({1}, torch::requires_grad()).to(device);  // BUG(device-mid-graph-to): the leaf is the CPU tensor; log_alpha is its device copy, which the temperature optimizer below cannot optimise
  auto log_std = make_log_std(action_dim, device);
  auto log_std_eval = make_log_std_ok(action_dim, device);
  auto action_bias = torch::zeros({action_dim}).to(device).requires_grad_();  // moved first, then made a leaf: fine

  std::vector<torch::Tensor> actor_params = actor->parameters();
  actor_params.push_back(log_std);
  actor_params.push_back(action_bias);
  torch::optim::Adam actor_opt(actor_params, torch::optim::AdamOptions(3e-4));
  torch::optim::Adam alpha_opt({log_alpha}, torch::optim::AdamOptions(3e-4));
  const double target_entropy = -static_cast<double>(action_dim);
  const auto opts = torch::TensorOptions().device(device);

  for (int step = 0; step < 10000; ++step) {
    auto obs = torch::randn({256, obs_dim}, opts);
    auto mu = actor->forward(obs) + action_bias;
    auto std_ = log_std.exp().expand_as(mu);
    auto action = mu + std_ * torch::randn_like(mu);
    auto logp = (-0.5 * ((action - mu) / std_).pow(2) - log_std - 0.9189385).sum(1);
    auto q_proxy = -(action - 0.5).pow(2).sum(1);
    auto actor_loss = (log_alpha.exp().detach() * logp - q_proxy).mean();
    actor_opt.zero_grad();
    actor_loss.backward();
    actor_opt.step();

    auto alpha_loss = -(log_alpha * (logp.detach() + target_entropy)).mean();
    alpha_opt.zero_grad();
    alpha_loss.backward();
    alpha_opt.step();
    if (step % 1000 == 0) std::printf("step %d alpha %.4f eval std %.3f\n", step, log_alpha.exp().item<float>(), log_std_eval.exp().mean().item<float>());
  }
}
