// Tabular regression with the small utilities every training script grows: an average meter,
// a console progress bar, a stop criterion. Pre-training, validation, then a short fine-tune.
#include <torch/torch.h>

#include <cstdio>
#include <iostream>
#include <string>

struct AverageMeter {
  double sum = 0.0;
  int64_t count = 0;
  // Called once per training step with the step's loss (see pretrain()).
  void update(const torch::Tensor& value) {
    sum += value.item<double>();  // BUG(device-sync-in-loop): avoidable: the meter only accumulates; its average is read after the loop
    ++count;
  }
  double average() const { return count ? sum / static_cast<double>(count) : 0.0; }
};

class ProgressBar {
 public:
  explicit ProgressBar(int total) : total_(total) {}
  void update(int step, float loss) {
    int filled = 30 * (step + 1) / total_;
    std::printf("\r[%s%s] %d/%d loss %.4f", std::string(filled, '#').c_str(),
                std::string(30 - filled, ' ').c_str(), step + 1, total_, loss);
    std::fflush(stdout);
  }

 private:
  int total_;
};

// The fine-tune stops as soon as the training loss reaches the target.
bool should_stop(const torch::Tensor& loss, float target) {
  return loss.item<float>() < target;  // SYNC(necessary): the caller breaks out of its loop on this value
}

torch::nn::Sequential make_mlp(int64_t in) {
  return torch::nn::Sequential(torch::nn::Linear(in, 128), torch::nn::ReLU(),
                               torch::nn::Linear(128, 64), torch::nn::ReLU(),
                               torch::nn::Linear(64, 1));
}

void pretrain(torch::nn::Sequential& mlp, torch::optim::Adam& opt, const torch::Tensor& X,
              const torch::Tensor& Y, int steps, int64_t batch) {
  AverageMeter meter;
  for (int step = 0; step < steps; ++step) {
    auto idx = torch::randint(0, X.size(0), {batch}, X.options().dtype(torch::kLong));
    auto loss = torch::mse_loss(mlp->forward(X.index_select(0, idx)), Y.index_select(0, idx));
    if (!torch::isfinite(loss).all().item<bool>()) {  // SYNC(necessary): a non-finite batch is skipped: the host decides whether to step
      std::cerr << "skipping non-finite batch at step " << step << '\n';
      continue;
    }
    opt.zero_grad();
    loss.backward();
    opt.step();
    meter.update(loss);
    if (step % 200 == 0)
      std::cout << "step " << step << " loss " << loss.item<float>() << '\n';  // SYNC(rare): one read every 200 steps, not per iteration
  }
  std::cout << "pretrain mean loss " << meter.average() << '\n';
}

void validate(torch::nn::Sequential& mlp, const torch::Tensor& X, const torch::Tensor& Y) {
  torch::NoGradGuard no_grad;
  for (int64_t start = 0; start < X.size(0); start += 512) {
    auto end = std::min<int64_t>(start + 512, X.size(0));
    auto val_loss = torch::mse_loss(mlp->forward(X.slice(0, start, end)), Y.slice(0, start, end));
    std::cout << "chunk " << start / 512 << " mse " << val_loss << std::endl;  // BUG(device-sync-in-loop): avoidable: printing a device tensor every chunk
  }
}

void finetune(torch::nn::Sequential& mlp, const torch::Tensor& X, const torch::Tensor& Y) {
  torch::optim::SGD opt(mlp->parameters(), torch::optim::SGDOptions(1e-3));
  const int steps = 300;
  ProgressBar bar(steps);
  for (int step = 0; step < steps; ++step) {
    opt.zero_grad();
    auto loss = torch::mse_loss(mlp->forward(X), Y);
    loss.backward();
    opt.step();
    bar.update(step, loss.item<float>());  // BUG(device-sync-in-loop): avoidable: a progress bar redrawn with the loss every step
    if (should_stop(loss, 1e-3f)) break;
  }
  std::printf("\n");
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto X = torch::randn({20000, 16}).to(device);
  auto Y = (X.sum(1, true) * 0.5 + 0.1 * torch::randn({20000, 1}).to(device));
  auto mlp = make_mlp(16);
  mlp->to(device);
  torch::optim::Adam opt(mlp->parameters(), torch::optim::AdamOptions(1e-3));
  pretrain(mlp, opt, X, Y, 2000, 256);
  validate(mlp, X.slice(0, 0, 4096), Y.slice(0, 0, 4096));
  finetune(mlp, X.slice(0, 0, 1024), Y.slice(0, 0, 1024));
  return 0;
}
