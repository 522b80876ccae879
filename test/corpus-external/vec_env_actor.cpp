// One-step actor-critic over a batch of simulated environments that expose raw float buffers.
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <random>
#include <vector>

// A toy point-mass simulator for N environments; the observation buffer is owned by the simulator.
class PointMassVecEnv {
 public:
  PointMassVecEnv(int64_t n, int64_t dim) : n_(n), dim_(dim), obs_(n * dim, 0.f), rng_(3) {}
  torch::Tensor observe() const {
    return torch::from_blob(const_cast<float*>(obs_.data()), {n_, dim_}).clone();
  }
  std::vector<float> step(const std::vector<int64_t>& actions) {
    std::vector<float> rewards(n_);
    std::normal_distribution<float> noise(0.f, 0.05f);
    for (int64_t i = 0; i < n_; ++i) {
      float* o = obs_.data() + i * dim_;
      o[actions[i] % dim_] += actions[i] < dim_ ? 0.1f : -0.1f;
      float dist = 0.f;
      for (int64_t d = 0; d < dim_; ++d) dist += (o[d] += noise(rng_)) * o[d];
      rewards[i] = -std::sqrt(dist);
    }
    return rewards;
  }
  int64_t num_actions() const { return 2 * dim_; }

 private:
  int64_t n_, dim_;
  std::vector<float> obs_;
  std::mt19937 rng_;
};

struct ActorCriticNetImpl : torch::nn::Module {
  ActorCriticNetImpl(int64_t obs, int64_t actions)
      : trunk(register_module("trunk", torch::nn::Linear(obs, 64))),
        pi(register_module("pi", torch::nn::Linear(64, actions))),
        v(register_module("v", torch::nn::Linear(64, 1))) {}
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& obs) {
    auto h = torch::tanh(trunk(obs));
    return {pi(h), v(h).squeeze(-1)};
  }
  torch::nn::Linear trunk, pi, v;
};
TORCH_MODULE(ActorCriticNet);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  PointMassVecEnv env(64, 3);
  ActorCriticNet policy(3, env.num_actions());
  policy->to(device);
  torch::optim::Adam opt(policy->parameters(), torch::optim::AdamOptions(7e-4));
  const double gamma = 0.99;

  auto obs = env.observe();
  for (int t = 0; t < 10000; ++t) {
    auto out = policy->forward(obs);  // BUG(device-unmoved-input): observe() returns a CPU copy of the simulator buffer; policy is on device
    auto dist = torch::softmax(out.first, -1);
    auto actions = torch::multinomial(dist, 1).squeeze(1);
    auto actions_cpu = actions.cpu();
    std::vector<int64_t> acts(actions_cpu.data_ptr<int64_t>(), actions_cpu.data_ptr<int64_t>() + actions_cpu.numel());
    auto rewards = env.step(acts);
    auto next_obs = env.observe();
    torch::Tensor next_v;
    {
      torch::NoGradGuard no_grad;
      next_v = policy->forward(next_obs.to(device)).second;
    }
    auto r = torch::tensor(rewards);  // BUG(device-factory-without-device): CPU rewards meet the device value estimates in the TD target
    auto td = r + gamma * next_v - out.second;
    auto logp = torch::log_softmax(out.first, -1).gather(1, actions.unsqueeze(1)).squeeze(1);
    auto loss = -(logp * td.detach()).mean() + td.pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    obs = next_obs;
    if (t % 1000 == 0) std::cout << t << " mean reward " << r.mean().item<float>() << "\n";
  }
}
