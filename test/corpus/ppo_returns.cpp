// PPO rollout storage and discounted returns (GAE-free version).
#include <torch/torch.h>

#include <vector>

struct Rollout {
  torch::Tensor rewards;  // [T, N] on the device
  torch::Tensor masks;    // [T, N] 1 - done, on the device
  torch::Tensor values;   // [T + 1, N] on the device
};

torch::Tensor discounted_returns_buggy(const Rollout& r, double gamma, torch::Device device) {
  const int64_t T = r.rewards.size(0), N = r.rewards.size(1);
  auto rewards = r.rewards.to(device);
  auto masks = r.masks.to(device);
  auto returns = torch::zeros({T, N}, torch::TensorOptions().device(device));
  auto running = torch::zeros({N});  // BUG(device-factory-without-device): CPU running return; `rewards[t] + gamma * running` mixes devices
  for (int64_t t = T - 1; t >= 0; --t) {
    running = rewards[t] + gamma * running * masks[t];
    returns[t] = running;
  }
  return returns;
}

torch::Tensor discounted_returns(const Rollout& r, double gamma) {
  const int64_t T = r.rewards.size(0);
  auto returns = torch::zeros_like(r.rewards);
  auto running = r.values[T];  // bootstrap from the last value estimate
  for (int64_t t = T - 1; t >= 0; --t) {
    running = r.rewards[t] + gamma * running * r.masks[t];
    returns[t] = running;
  }
  return returns;
}

torch::Tensor normalize_advantages(const torch::Tensor& adv) {
  auto eps = torch::tensor(1e-8);  // 0-dim: fine
  return (adv - adv.mean()) / (adv.std() + eps);
}

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  const int64_t T = 64, N = 8;
  auto opts = torch::TensorOptions().device(device);
  Rollout r{torch::rand({T, N}, opts), torch::ones({T, N}, opts), torch::randn({T + 1, N}, opts)};

  // Host-side storage filled step by step, then moved once.
  auto host_rewards = torch::zeros({T, N});
  for (int64_t t = 0; t < T; ++t) host_rewards[t].copy_(r.rewards[t]);
  auto stored = host_rewards.to(device);

  auto ret_a = discounted_returns_buggy(r, 0.99, device);
  auto ret_b = discounted_returns(r, 0.99);
  auto adv = normalize_advantages(ret_b - r.values.narrow(0, 0, T));
  return static_cast<int>((ret_a - ret_b).abs().sum().item<float>() + adv.numel() + stored.numel());
}
