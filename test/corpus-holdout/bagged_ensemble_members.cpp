// Bagged ensemble of small regressors kept in a std::vector, plus a stacking layer.
// Members are moved to the device in a loop; predictions are averaged.
#include <torch/torch.h>

#include <cstdio>
#include <vector>

struct MemberImpl : torch::nn::Module {
  explicit MemberImpl(int64_t in) {
    l1 = register_module("l1", torch::nn::Linear(in, 64));
    l2 = register_module("l2", torch::nn::Linear(64, 1));
  }
  torch::Tensor forward(const torch::Tensor& x) { return l2->forward(torch::tanh(l1->forward(x))).squeeze(1); }
  torch::nn::Linear l1{nullptr}, l2{nullptr};
};
TORCH_MODULE(Member);

static torch::Tensor ensemble_predict(std::vector<Member>& members, const torch::Tensor& x) {
  std::vector<torch::Tensor> preds;
  for (auto& m : members) preds.push_back(m->forward(x));  // BUG(device-unmoved-input): main() moved every member to the device and passes a host batch here
  return torch::stack(preds, 1);
}

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  const int64_t in = 10;
  auto x_host = torch::randn({5000, in});
  auto y_host = x_host.sin().sum(1);

  std::vector<Member> members;
  for (int k = 0; k < 5; ++k) members.emplace_back(in);
  for (auto& m : members) m->to(device);

  auto x = x_host.to(device), y = y_host.to(device);
  for (size_t k = 0; k < members.size(); ++k) {
    torch::optim::Adam opt(members[k]->parameters(), torch::optim::AdamOptions(1e-2));
    auto boot = torch::randint(0, x.size(0), {x.size(0)}, torch::TensorOptions().dtype(torch::kLong).device(device));
    for (int step = 0; step < 500; ++step) {
      auto loss = torch::mse_loss(members[k]->forward(x.index_select(0, boot)), y.index_select(0, boot));
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
  }

  auto stacker = torch::nn::Sequential(torch::nn::Linear(5, 1));
  stacker->to(device);
  torch::optim::SGD stack_opt(stacker->parameters(), torch::optim::SGDOptions(0.01));
  auto holdout = torch::randn({1000, in});
  for (int step = 0; step < 200; ++step) {
    torch::Tensor base;
    {
      torch::NoGradGuard no_grad;
      base = ensemble_predict(members, holdout);
    }
    auto target = holdout.sin().sum(1).to(device);
    auto loss = torch::mse_loss(stacker->forward(base.to(device)).squeeze(1), target);
    stack_opt.zero_grad();
    loss.backward();
    stack_opt.step();
  }
  auto probe = stacker->forward(torch::rand({4, 5}));  // BUG(device-unmoved-input): the stacker was moved to the device; this probe batch is created on the CPU
  std::printf("probe mean %.4f\n", probe.mean().item<float>());
}
