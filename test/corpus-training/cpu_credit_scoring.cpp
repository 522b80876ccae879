// Credit-default model trained on the CPU of a batch server (no accelerator in this
// deployment, by design): logistic regression with a small hidden layer, per-step
// loss trace written to a CSV, AUC-like ranking score on a holdout set.
#include <torch/torch.h>

#include <cstdio>
#include <fstream>

struct ScorerImpl : torch::nn::Module {
  explicit ScorerImpl(int64_t features) {
    hidden = register_module("hidden", torch::nn::Linear(features, 32));
    out = register_module("out", torch::nn::Linear(32, 1));
  }
  torch::Tensor forward(const torch::Tensor& x) { return out->forward(torch::relu(hidden->forward(x))).squeeze(1); }
  torch::nn::Linear hidden{nullptr}, out{nullptr};
};
TORCH_MODULE(Scorer);

static double ranking_score(const torch::Tensor& scores, const torch::Tensor& labels) {
  auto pos = scores.masked_select(labels.to(torch::kBool));
  auto neg = scores.masked_select(~labels.to(torch::kBool));
  return (pos.unsqueeze(1) > neg.unsqueeze(0)).to(torch::kFloat).mean().item<double>();
}

int main() {
  torch::set_num_threads(8);
  torch::manual_seed(7);
  auto x = torch::randn({50000, 20});
  auto true_w = torch::randn({20});
  auto y = (torch::sigmoid(x.matmul(true_w)) > torch::rand({50000})).to(torch::kFloat);
  // Standardise with the training statistics (all CPU tensors).
  auto mu = x.slice(0, 0, 40000).mean(0), sigma = x.slice(0, 0, 40000).std(0).clamp_min(1e-6);
  x = (x - mu) / sigma;
  auto x_train = x.slice(0, 0, 40000), y_train = y.slice(0, 0, 40000);
  auto x_hold = x.slice(0, 40000), y_hold = y.slice(0, 40000);

  Scorer model(20);
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-2).weight_decay(1e-4));
  std::ofstream trace("loss_trace.csv");

  int64_t step = 0;
  for (int epoch = 0; epoch < 8; ++epoch) {
    model->train();
    auto perm = torch::randperm(x_train.size(0));
    for (int64_t i = 0; i + 500 <= perm.size(0); i += 500, ++step) {
      auto idx = perm.narrow(0, i, 500);
      auto loss = torch::binary_cross_entropy_with_logits(model->forward(x_train.index_select(0, idx)),
                                                          y_train.index_select(0, idx));
      opt.zero_grad();
      loss.backward();
      opt.step();
      trace << step << ',' << loss.item<double>() << '\n';  // CPU tensors only: reading a value is no device sync
    }
    torch::NoGradGuard no_grad;
    model->eval();
    std::printf("epoch %d holdout ranking %.4f\n", epoch, ranking_score(model->forward(x_hold), y_hold));
  }
  // Temperature for calibrated probabilities, fitted on the holdout logits.
  torch::Tensor holdout_logits;
  {
    torch::NoGradGuard no_grad;
    holdout_logits = model->forward(x_hold);
  }
  auto log_t = torch::zeros({1}, torch::requires_grad());
  torch::optim::Adam t_opt({log_t}, torch::optim::AdamOptions(0.05));
  for (int it = 0; it < 200; ++it) {
    t_opt.zero_grad();
    auto nll = torch::binary_cross_entropy_with_logits(holdout_logits / log_t.exp(), y_hold);
    nll.backward();
    t_opt.step();
  }
  std::printf("temperature %.3f\n", log_t.exp().item<double>());
  torch::save(model, "scorer.pt");
  torch::save(log_t.detach(), "scorer_temperature.pt");
}
