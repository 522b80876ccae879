// Deep clustering: features from an encoder on the device are assigned to centroids
// kept by a k-means step; feature statistics are tracked by a standardiser.
#include <torch/torch.h>

#include <cstdio>

class Standardizer {
 public:
  void fit(const torch::Tensor& feats) {
    mean_ = feats.mean(0).to(torch::kCPU);  // kept on the host for checkpointing
    std_ = feats.std(0).clamp_min(1e-6).to(torch::kCPU);
  }
  torch::Tensor apply(const torch::Tensor& feats) const {
    return (feats - mean_) / std_;  // BUG(device-mismatch): mean_ and std_ are host copies (.to(kCPU) in fit()); train() passes device features
  }
  torch::Tensor mean_, std_;
};

static torch::Tensor kmeans(const torch::Tensor& x, int64_t k, int iters) {
  auto centroids = x.index_select(0, torch::randperm(x.size(0), x.options().dtype(torch::kLong)).slice(0, 0, k)).clone();
  for (int it = 0; it < iters; ++it) {
    auto assign = torch::cdist(x, centroids).argmin(1);
    auto sums = torch::zeros_like(centroids).index_add_(0, assign, x);
    auto counts = torch::zeros({k}, x.options()).index_add_(0, assign, torch::ones({x.size(0)}, x.options()));
    centroids = sums / counts.clamp_min(1).unsqueeze(1);
  }
  return centroids;
}

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  auto encoder = torch::nn::Sequential(torch::nn::Linear(128, 256), torch::nn::ReLU(), torch::nn::Linear(256, 32));
  encoder->to(device);
  torch::optim::Adam opt(encoder->parameters(), torch::optim::AdamOptions(1e-3));
  const auto opts = torch::TensorOptions().device(device);
  auto data = torch::randn({20000, 128}, opts);

  Standardizer stdz;
  for (int round = 0; round < 10; ++round) {
    torch::Tensor feats;
    {
      torch::NoGradGuard no_grad;
      feats = encoder->forward(data);
    }
    stdz.fit(feats);
    auto centroids = kmeans(stdz.apply(feats), 50, 20).cpu();  // host copy for the log below
    auto spread = torch::cdist(stdz.apply(feats), centroids).min(1);  // BUG(device-mismatch): centroids were copied to the host one line above; the standardised features are on the device
    auto threshold = std::get<0>(spread).quantile(0.9).cpu();  // 0-dim: may meet device tensors
    for (int step = 0; step < 100; ++step) {
      auto idx = torch::randint(0, data.size(0), {512}, opts.dtype(torch::kLong));
      auto z = encoder->forward(data.index_select(0, idx));
      auto near = (z.norm(2, 1) < threshold).to(torch::kFloat);
      auto loss = (z.pow(2).sum(1) * (1 - near)).mean() + 1e-3 * z.abs().mean();
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
    std::printf("round %d centroid norm %.3f\n", round, centroids.norm().item<float>());
  }
}
