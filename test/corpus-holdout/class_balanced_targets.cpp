// Long-tailed classification: class-balanced weights from the label histogram
// ("effective number of samples") and label smoothing, both computed by helpers.
#include <torch/torch.h>

#include <cmath>
#include <cstdio>
#include <vector>

// Weight of class c: (1 - beta) / (1 - beta^n_c), normalised to mean 1.
static torch::Tensor effective_number_weights(const std::vector<int64_t>& counts, double beta) {
  std::vector<float> w;
  for (int64_t n : counts) w.push_back(static_cast<float>((1.0 - beta) / (1.0 - std::pow(beta, static_cast<double>(n)))));
  auto t = torch::tensor(w);  // BUG(device-factory-without-device): a CPU tensor; main() gathers it with device targets and multiplies it into the device loss
  return t * (static_cast<double>(counts.size()) / t.sum());
}

// One-hot targets with eps spread over the other classes.
static torch::Tensor smooth_one_hot(const torch::Tensor& targets, int64_t classes, double eps) {
  auto out = torch::full({targets.size(0), classes}, eps / static_cast<double>(classes - 1));  // BUG(device-factory-without-device): CPU; scatter_ below takes the caller's device targets as index, and the result meets device log-probs in soft_ce()
  out.scatter_(1, targets.unsqueeze(1), 1.0 - eps);
  return out;
}

// The same smoothing, written with the targets' options: fine on any device.
static torch::Tensor smooth_one_hot_like(const torch::Tensor& logits, const torch::Tensor& targets, double eps) {
  auto out = torch::full_like(logits, eps / static_cast<double>(logits.size(1) - 1));
  return out.scatter(1, targets.unsqueeze(1), 1.0 - eps);
}

static torch::Tensor soft_ce(const torch::Tensor& logits, const torch::Tensor& soft) {
  return -(soft * torch::log_softmax(logits, 1)).sum(1).mean();
}

static void self_test() {  // runs on the CPU at start-up
  auto t = torch::tensor({0, 2, 1}, torch::kLong);
  auto s = smooth_one_hot(t, 3, 0.1);
  TORCH_CHECK(torch::allclose(s.sum(1), torch::ones({3})), "rows must sum to 1");
}

int main() {
  self_test();
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  const std::vector<int64_t> counts{5000, 2000, 800, 300, 120, 40, 15};
  const int64_t classes = static_cast<int64_t>(counts.size());
  auto class_w = effective_number_weights(counts, 0.999);

  auto model = torch::nn::Sequential(torch::nn::Linear(32, 128), torch::nn::ReLU(), torch::nn::Linear(128, classes));
  model->to(device);
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
  const auto opts = torch::TensorOptions().device(device);

  for (int step = 0; step < 3000; ++step) {
    auto x = torch::randn({256, 32}, opts);
    auto y = torch::randint(0, classes, {256}, opts.dtype(torch::kLong));
    auto logits = model->forward(x);
    auto per_sample = torch::cross_entropy_loss(logits, y, {}, at::Reduction::None);
    auto weighted = (per_sample * class_w.index_select(0, y)).mean();
    auto smoothed = soft_ce(logits, smooth_one_hot(y, classes, 0.1));
    auto loss = 0.5 * weighted + 0.5 * smoothed;
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 500 == 0) {
      auto reference = soft_ce(logits.detach(), smooth_one_hot_like(logits, y, 0.1));
      std::printf("step %d loss %.4f smoothed-ce %.4f\n", step, loss.item<float>(), reference.item<float>());
    }
  }
}
