// Offline RL (fitted Q evaluation) on logged episodes: transitions are collated into
// tensors by a helper; n-step returns are compared with the critic's values.
#include <torch/torch.h>

#include <cstdio>
#include <vector>

struct Transition {
  std::vector<float> obs;          // 12 features
  std::vector<float> rewards;      // the next n rewards
  float discount_to_bootstrap = 0;  // gamma^n, or 0 at episode end
};

static std::vector<Transition> load_log(int n) {
  std::vector<Transition> log(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    log[i].obs.assign(12, 0.01f * static_cast<float>(i % 100));
    log[i].rewards = {1.f, 0.f, 0.5f};
    log[i].discount_to_bootstrap = (i % 50 == 49) ? 0.f : 0.970299f;
  }
  return log;
}

// Rewards of a minibatch as a [B, n] tensor.
static torch::Tensor collate_rewards(const std::vector<Transition>& batch) {
  std::vector<torch::Tensor> rows;
  for (const auto& t : batch) rows.push_back(torch::tensor(t.rewards));  // BUG(device-factory-without-device): CPU rows; the stacked result meets the device values in main()
  return torch::stack(rows);
}

static torch::Tensor collate_obs(const std::vector<Transition>& batch, torch::Device device) {
  std::vector<float> flat;
  for (const auto& t : batch) flat.insert(flat.end(), t.obs.begin(), t.obs.end());
  return torch::tensor(flat, torch::TensorOptions().device(device)).view({static_cast<int64_t>(batch.size()), 12});
}

static torch::Tensor collate_discounts(const std::vector<Transition>& batch, const torch::Tensor& like) {
  std::vector<float> d;
  for (const auto& t : batch) d.push_back(t.discount_to_bootstrap);
  return torch::tensor(d, like.options());
}

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto critic = torch::nn::Sequential(torch::nn::Linear(12, 128), torch::nn::ReLU(), torch::nn::Linear(128, 1));
  critic->to(device);
  torch::optim::Adam opt(critic->parameters(), torch::optim::AdamOptions(1e-3));
  const auto log = load_log(10000);
  auto gammas = torch::tensor({1.f, 0.99f, 0.9801f});             // host constant ...
  auto gammas_dev = gammas.to(device);                              // ... moved once
  auto embedding_table = torch::randn({1000, 12});                  // BUG(device-factory-without-device): a CPU table; the slice below is added to device observations
  auto episode_bias = embedding_table.slice(0, 0, 256);

  for (int step = 0; step < 2000; ++step) {
    std::vector<Transition> batch(log.begin() + (step * 256) % 9000, log.begin() + (step * 256) % 9000 + 256);
    auto obs = collate_obs(batch, device) + 0.01 * episode_bias;
    auto values = critic->forward(obs).squeeze(1);
    auto rewards = collate_rewards(batch);
    auto discounts = collate_discounts(batch, values);
    torch::Tensor target;
    {
      torch::NoGradGuard no_grad;
      target = (rewards * gammas_dev).sum(1) + discounts * values.detach();
    }
    auto loss = torch::mse_loss(values, target);
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 200 == 0) std::printf("step %d td loss %.4f\n", step, loss.item<float>());
  }
}
