// Observation normalisation for a policy: fixed statistics from a file, and running statistics.
#include <torch/torch.h>

#include <fstream>
#include <iostream>
#include <string>
#include <vector>

// Mean/std measured offline, stored as 2*dim floats.
class FixedNormalizer {
 public:
  explicit FixedNormalizer(const std::vector<float>& packed)
      : stats_(torch::tensor(packed).view({2, -1})) {}  // BUG(device-factory-without-device): CPU statistics; apply() meets the device observations with them

  torch::Tensor apply(const torch::Tensor& obs) const {
    return ((obs - stats_[0]) / (stats_[1] + 1e-8)).clamp(-10, 10);
  }

 private:
  torch::Tensor stats_;
};

// Welford-style running statistics that live wherever the observations live.
class RunningMeanStd {
 public:
  void update(const torch::Tensor& batch) {
    if (!mean_.defined()) {
      mean_ = torch::zeros({batch.size(1)}, batch.options());
      var_ = torch::ones_like(mean_);
    }
    auto b_mean = batch.mean(0), b_var = batch.var(0, /*unbiased=*/false);
    const double b_count = static_cast<double>(batch.size(0)), total = count_ + b_count;
    auto delta = b_mean - mean_;
    mean_ = mean_ + delta * (b_count / total);
    var_ = (var_ * count_ + b_var * b_count + delta.pow(2) * count_ * b_count / total) / total;
    count_ = total;
  }
  torch::Tensor apply(const torch::Tensor& obs) const { return (obs - mean_) / torch::sqrt(var_ + 1e-8); }

 private:
  torch::Tensor mean_, var_;
  double count_ = 1e-4;
};

std::vector<float> read_stats(const std::string& path, int64_t dim) {
  std::vector<float> v(2 * dim, 0.f);
  std::ifstream in(path);
  for (auto& x : v) in >> x;
  for (int64_t i = dim; i < 2 * dim; ++i) v[i] = v[i] > 0 ? v[i] : 1.f;
  return v;
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t obs_dim = 11, act_dim = 3, envs = 16;
  auto policy = torch::nn::Sequential(torch::nn::Linear(obs_dim, 64), torch::nn::Tanh(), torch::nn::Linear(64, act_dim));
  policy->to(device);
  FixedNormalizer fixed(read_stats("hopper_stats.txt", obs_dim));
  RunningMeanStd running;

  torch::NoGradGuard no_grad;
  double ret_fixed = 0, ret_running = 0;
  for (int t = 0; t < 1000; ++t) {
    auto obs = torch::randn({envs, obs_dim}, torch::device(device)) * 3 + 1;
    running.update(obs);
    auto a1 = policy->forward(fixed.apply(obs));
    auto a2 = policy->forward(running.apply(obs));
    ret_fixed += -a1.pow(2).sum().item<double>();
    ret_running += -a2.pow(2).sum().item<double>();
  }
  std::cout << ret_fixed << " vs " << ret_running << "\n";
}
