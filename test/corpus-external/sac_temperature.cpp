// Soft actor-critic pieces: twin Q critics, Polyak averaging and a learned entropy temperature.
#include <torch/torch.h>

#include <memory>
#include <vector>

struct CriticImpl : torch::nn::Module {
  CriticImpl(int64_t obs, int64_t act) {
    q1 = register_module("q1", torch::nn::Sequential(torch::nn::Linear(obs + act, 256), torch::nn::ReLU(),
                                                      torch::nn::Linear(256, 1)));
    q2 = register_module("q2", torch::nn::Sequential(torch::nn::Linear(obs + act, 256), torch::nn::ReLU(),
                                                      torch::nn::Linear(256, 1)));
  }
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& s, const torch::Tensor& a) {
    auto sa = torch::cat({s, a}, -1);
    return {q1->forward(sa), q2->forward(sa)};
  }
  torch::nn::Sequential q1{nullptr}, q2{nullptr};
};
TORCH_MODULE(Critic);

// Learns alpha so that the policy entropy tracks a target value.
struct Temperature {
  Temperature(int64_t act_dim, torch::Device device) : target_entropy(-static_cast<double>(act_dim)) {
    log_alpha = torch::zeros({1}, torch::requires_grad()).to(device);  // BUG(device-mid-graph-to): on a GPU the copy is no leaf; Adam below rejects it
    opt = std::make_unique<torch::optim::Adam>(std::vector<torch::Tensor>{log_alpha}, torch::optim::AdamOptions(3e-4));
  }
  torch::Tensor alpha() const { return log_alpha.exp().detach(); }
  void update(const torch::Tensor& log_pi) {
    auto loss = -(log_alpha * (log_pi + target_entropy).detach()).mean();
    opt->zero_grad();
    loss.backward();
    opt->step();
  }
  double target_entropy;
  torch::Tensor log_alpha;
  std::unique_ptr<torch::optim::Adam> opt;
};

void soft_update(Critic& target, Critic& source, double tau) {
  torch::NoGradGuard no_grad;
  auto t = target->parameters();
  auto s = source->parameters();
  for (size_t i = 0; i < t.size(); ++i) t[i].mul_(1.0 - tau).add_(s[i], tau);
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t obs_dim = 17, act_dim = 6, batch = 256;
  Critic critic(obs_dim, act_dim), critic_target(obs_dim, act_dim);
  critic->to(device);
  critic_target->to(device);
  soft_update(critic_target, critic, 1.0);
  torch::optim::Adam critic_opt(critic->parameters(), torch::optim::AdamOptions(3e-4));
  Temperature temp(act_dim, device);

  for (int step = 0; step < 1000; ++step) {
    auto s = torch::randn({batch, obs_dim}, torch::device(device));
    auto a = torch::tanh(torch::randn({batch, act_dim}, torch::device(device)));
    auto r = torch::randn({batch, 1}, torch::device(device));
    auto s2 = torch::randn({batch, obs_dim}, torch::device(device));
    auto a2 = torch::tanh(torch::randn({batch, act_dim}, torch::device(device)));
    auto log_pi2 = torch::randn({batch, 1}, torch::device(device));

    torch::Tensor target_q;
    {
      torch::NoGradGuard no_grad;
      auto q_next = critic_target->forward(s2, a2);
      auto min_q = torch::min(q_next.first, q_next.second) - temp.alpha() * log_pi2;
      target_q = r + 0.99 * min_q;
    }
    auto q = critic->forward(s, a);
    auto critic_loss = torch::mse_loss(q.first, target_q) + torch::mse_loss(q.second, target_q);
    critic_opt.zero_grad();
    critic_loss.backward();
    critic_opt.step();

    temp.update(log_pi2);
    soft_update(critic_target, critic, 0.005);
  }
}
