// Advantage actor-critic with separate actor and critic networks on a batched
// cart-pole simulation that runs on the training device.
#include <torch/torch.h>

#include <cmath>
#include <cstdio>

struct CartPoles {  // the classic equations, vectorised over N carts
  CartPoles(int64_t n, torch::Device d) : opts(torch::TensorOptions().device(d)) {
    state = (torch::rand({n, 4}, opts) - 0.5) * 0.1;
  }
  std::pair<torch::Tensor, torch::Tensor> step(const torch::Tensor& action) {
    auto x = state.select(1, 0), x_dot = state.select(1, 1), th = state.select(1, 2), th_dot = state.select(1, 3);
    auto force = (action.to(torch::kFloat) * 2 - 1) * 10.0;
    auto cos_t = torch::cos(th), sin_t = torch::sin(th);
    auto temp = (force + 0.05 * th_dot * th_dot * sin_t) / 1.1;
    auto th_acc = (9.8 * sin_t - cos_t * temp) / (0.5 * (4.0 / 3.0 - 0.1 * cos_t * cos_t / 1.1));
    auto x_acc = temp - 0.05 * th_acc * cos_t / 1.1;
    state = torch::stack({x + 0.02 * x_dot, x_dot + 0.02 * x_acc, th + 0.02 * th_dot, th_dot + 0.02 * th_acc}, 1);
    auto done = (state.select(1, 0).abs() > 2.4) | (state.select(1, 2).abs() > 0.21);
    state = torch::where(done.unsqueeze(1), (torch::rand_like(state) - 0.5) * 0.1, state);
    return {torch::ones_like(force), done.to(torch::kFloat)};
  }
  torch::TensorOptions opts;
  torch::Tensor state;
};

static torch::nn::Sequential mlp(int64_t out) {
  return torch::nn::Sequential(torch::nn::Linear(4, 128), torch::nn::Tanh(), torch::nn::Linear(128, out));
}

static void clear_gradients(torch::nn::Module& m) { m.zero_grad(); }

int main() {
  const torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  CartPoles env(256, device);
  auto actor = mlp(2), critic = mlp(1);
  actor->to(device);
  critic->to(device);
  torch::optim::Adam actor_opt(actor->parameters(), torch::optim::AdamOptions(7e-4));
  torch::optim::Adam critic_opt(critic->parameters(), torch::optim::AdamOptions(1e-3));

  const int n_steps = 5;
  auto episode_len = torch::zeros({256}, env.opts);
  auto finished_len = torch::zeros({}, env.opts);
  auto finished = torch::zeros({}, env.opts);
  for (int update = 0; update < 20000; ++update) {
    std::vector<torch::Tensor> logps, values, rewards, dones, entropies;
    for (int t = 0; t < n_steps; ++t) {
      auto obs = env.state;
      auto logits = actor->forward(obs);
      auto action = torch::multinomial(torch::softmax(logits, 1), 1).squeeze(1);
      auto logp_all = torch::log_softmax(logits, 1);
      logps.push_back(logp_all.gather(1, action.unsqueeze(1)).squeeze(1));
      entropies.push_back(-(logp_all.exp() * logp_all).sum(1));
      values.push_back(critic->forward(obs).squeeze(1));
      auto [r, d] = env.step(action);
      rewards.push_back(r);
      dones.push_back(d);
      episode_len = episode_len + 1;
      finished_len += (episode_len * d).sum();
      finished += d.sum();
      episode_len = episode_len * (1 - d);
    }
    torch::Tensor ret;
    {
      torch::NoGradGuard no_grad;
      ret = critic->forward(env.state).squeeze(1);
    }
    auto actor_loss = torch::zeros({}, env.opts), critic_loss = torch::zeros({}, env.opts);
    for (int t = n_steps - 1; t >= 0; --t) {
      ret = rewards[t] + 0.99 * ret * (1 - dones[t]);
      auto adv = ret - values[t];
      actor_loss = actor_loss - (logps[t] * adv.detach()).mean() - 0.01 * entropies[t].mean();
      critic_loss = critic_loss + adv.pow(2).mean();
    }
    clear_gradients(*actor);
    actor_loss.backward();
    critic_loss.backward();
    actor_opt.step();
    critic_opt.step();  // BUG(training-missing-zero-grad): clear_gradients() is only ever given the actor; the critic's gradients accumulate over all updates
    if (update % 1000 == 0)
      std::printf("update %d  mean episode length %.1f\n", update, (finished_len / finished.clamp_min(1)).item<float>());
  }
}
