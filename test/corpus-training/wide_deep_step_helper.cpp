// Wide & deep click-through model on synthetic categorical features; reports
// examples/second per step.
#include <torch/torch.h>

#include <chrono>
#include <cstdio>
#include <vector>

struct WideDeepImpl : torch::nn::Module {
  WideDeepImpl(const std::vector<int64_t>& cardinalities, int64_t dim) {
    for (size_t f = 0; f < cardinalities.size(); ++f) {
      embeds->push_back(torch::nn::Embedding(cardinalities[f], dim));
      wide->push_back(torch::nn::Embedding(cardinalities[f], 1));
    }
    register_module("embeds", embeds);
    register_module("wide", wide);
    deep = register_module("deep", torch::nn::Sequential(
        torch::nn::Linear(dim * static_cast<int64_t>(cardinalities.size()), 256), torch::nn::ReLU(),
        torch::nn::Linear(256, 128), torch::nn::ReLU(), torch::nn::Linear(128, 1)));
  }
  torch::Tensor forward(const torch::Tensor& cats) {  // [B, F] long
    std::vector<torch::Tensor> e;
    auto w = torch::zeros({cats.size(0), 1}, torch::TensorOptions().device(cats.device()));
    for (size_t f = 0; f < embeds->size(); ++f) {
      auto col = cats.select(1, static_cast<int64_t>(f));
      e.push_back(embeds[f]->as<torch::nn::Embedding>()->forward(col));
      w = w + wide[f]->as<torch::nn::Embedding>()->forward(col);
    }
    return (deep->forward(torch::cat(e, 1)) + w).squeeze(1);
  }
  torch::nn::ModuleList embeds, wide;
  torch::nn::Sequential deep{nullptr};
};
TORCH_MODULE(WideDeep);

// One optimisation step on an already computed loss.
static void backward_and_step(torch::optim::Optimizer& opt, const torch::Tensor& loss) {
  loss.backward();
  opt.step();  // BUG(training-missing-zero-grad): called once per batch by the loop in main(), and neither this helper nor the loop clears the gradients
}

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  const std::vector<int64_t> card{1000, 500, 50, 24, 7, 10000};
  WideDeep model(card, 16);
  model->to(device);
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-3));

  const int64_t batch = 2048;
  const auto long_opts = torch::TensorOptions().dtype(torch::kLong).device(device);
  auto highs = torch::tensor(card, long_opts);
  for (int step = 0; step < 5000; ++step) {
    auto cats = (torch::rand({batch, static_cast<int64_t>(card.size())}, torch::TensorOptions().device(device)) * highs)
                    .to(torch::kLong);
    auto clicks = (cats.select(1, 4) == 3).to(torch::kFloat);
    const auto t0 = std::chrono::steady_clock::now();
    auto loss = torch::binary_cross_entropy_with_logits(model->forward(cats), clicks);
    backward_and_step(opt, loss);
    if (device.is_cuda()) torch::cuda::synchronize();  // BUG(device-sync-in-loop): waits for the GPU after every step just to time it; the queue drains each iteration
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (step % 100 == 0) std::printf("step %d  %.0f ex/s  loss %.4f\n", step, batch / secs, loss.item<float>());
  }
}
