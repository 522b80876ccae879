// Policy-gradient worker on a C-style vectorised simulator (host buffers). The
// policy and value networks run on the training device.
#include <torch/torch.h>

#include <cstdio>
#include <random>
#include <vector>

struct Simulator {  // stand-in for a C library: N environments, observations in one float buffer
  Simulator(int n, int dim) : n(n), dim(dim), obs(n * dim), rewards(n) {}
  void step(const std::vector<int64_t>& actions) {
    for (int i = 0; i < n; ++i) {
      for (int d = 0; d < dim; ++d) obs[i * dim + d] = 0.9f * obs[i * dim + d] + noise(rng);
      rewards[i] = actions[i] == (obs[i * dim] > 0 ? 1 : 0) ? 1.0f : 0.0f;
    }
  }
  int n, dim;
  std::vector<float> obs, rewards;
  std::mt19937 rng{0};
  std::normal_distribution<float> noise{0.f, 0.1f};
};

// A tensor view of the simulator's buffer, cloned so that the next step cannot change it.
static torch::Tensor observe(Simulator& sim) {
  return torch::from_blob(sim.obs.data(), {sim.n, sim.dim}, torch::kFloat).clone();
}

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  Simulator sim(128, 8);
  auto policy = torch::nn::Sequential(torch::nn::Linear(8, 64), torch::nn::Tanh(), torch::nn::Linear(64, 2));
  auto value = torch::nn::Sequential(torch::nn::Linear(8, 64), torch::nn::Tanh(), torch::nn::Linear(64, 1));
  policy->to(device);
  value->to(device);
  std::vector<torch::Tensor> params = policy->parameters();
  for (auto& p : value->parameters()) params.push_back(p);
  torch::optim::Adam opt(params, torch::optim::AdamOptions(3e-4));

  for (int it = 0; it < 2000; ++it) {
    auto obs = observe(sim);
    auto logits = policy->forward(obs);  // BUG(device-unmoved-input): observe() returns a host clone of the simulator buffer; the policy was moved to the device
    auto v = value->forward(obs.to(device)).squeeze(1);
    auto action = torch::multinomial(torch::softmax(logits, 1), 1).squeeze(1);
    auto host_actions = action.to(torch::kCPU);
    sim.step(std::vector<int64_t>(host_actions.data_ptr<int64_t>(), host_actions.data_ptr<int64_t>() + sim.n));
    auto reward = torch::tensor(sim.rewards);  // BUG(device-factory-without-device): a CPU tensor from the host vector; it meets the device value estimates v in the advantage
    auto adv = reward - v;
    auto logp = torch::log_softmax(logits, 1).gather(1, action.unsqueeze(1)).squeeze(1);
    auto loss = -(logp * adv.detach()).mean() + 0.5 * adv.pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (it % 100 == 0) std::printf("it %d mean reward %.3f\n", it, reward.mean().item<float>());
  }
}
