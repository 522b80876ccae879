// Training-loop bookkeeping: named metric sums kept as tensors (no sync per step), logged per epoch.
#include <torch/torch.h>

#include <iomanip>
#include <iostream>
#include <map>
#include <string>

class MetricTracker {
 public:
  void add(const std::string& name, const torch::Tensor& value, int64_t n) {
    auto it = sums_.find(name);
    if (it == sums_.end()) it = sums_.emplace(name, torch::zeros({1})).first;  // BUG(device-factory-without-device): CPU [1] sum; += below adds the device metric to it
    it->second += value.detach() * n;
    counts_[name] += n;
  }
  std::map<std::string, double> averages() const {
    std::map<std::string, double> out;
    for (const auto& kv : sums_) out[kv.first] = kv.second.item<double>() / counts_.at(kv.first);
    return out;
  }
  void reset() {
    sums_.clear();
    counts_.clear();
  }

 private:
  std::map<std::string, torch::Tensor> sums_;
  std::map<std::string, int64_t> counts_;
};

struct RegressorImpl : torch::nn::Module {
  RegressorImpl()
      : body(register_module("body", torch::nn::Sequential(torch::nn::Linear(20, 64), torch::nn::SiLU(), torch::nn::Linear(64, 1)))) {}
  torch::Tensor forward(const torch::Tensor& x) { return body->forward(x).squeeze(-1); }
  torch::nn::Sequential body;
};
TORCH_MODULE(Regressor);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Regressor model;
  model->to(device);
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-3));
  MetricTracker tracker;
  auto w_true = torch::randn({20}, torch::device(device));

  for (int epoch = 0; epoch < 10; ++epoch) {
    auto grad_norm_sum = torch::zeros({});  // BUG(device-factory-without-device): 0-dim, but it is the output of += with a device value, which LibTorch rejects
    auto epoch_loss = torch::zeros({});
    for (int step = 0; step < 100; ++step) {
      auto x = torch::randn({64, 20}, torch::device(device));
      auto y = x.matmul(w_true) + 0.1 * torch::randn({64}, torch::device(device));
      auto pred = model->forward(x);
      auto loss = torch::mse_loss(pred, y);
      opt.zero_grad();
      loss.backward();
      torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
      opt.step();
      grad_norm_sum += model->body[0]->as<torch::nn::Linear>()->weight.grad().norm();
      epoch_loss = epoch_loss + loss.detach();
      tracker.add("mse", loss, x.size(0));
      tracker.add("mae", (pred - y).abs().mean(), x.size(0));
    }
    std::cout << "epoch " << epoch << std::fixed << std::setprecision(4) << " loss " << (epoch_loss / 100).item<float>()
              << " grad " << (grad_norm_sum / 100).item<float>();
    for (const auto& kv : tracker.averages()) std::cout << " " << kv.first << " " << kv.second;
    std::cout << "\n";
    tracker.reset();
  }
}
