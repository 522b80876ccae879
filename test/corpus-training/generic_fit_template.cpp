// A small reusable trainer template (model type and loss as template parameters),
// used here for a tabular MLP on synthetic data.
#include <torch/torch.h>

#include <cstdio>
#include <functional>

struct TabularNetImpl : torch::nn::Module {
  explicit TabularNetImpl(int64_t in) {
    net = register_module("net", torch::nn::Sequential(torch::nn::Linear(in, 64), torch::nn::SiLU(),
                                                       torch::nn::Dropout(0.1), torch::nn::Linear(64, 3)));
  }
  torch::Tensor forward(const torch::Tensor& x) { return net->forward(x); }
  torch::nn::Sequential net{nullptr};
};
TORCH_MODULE(TabularNet);

struct Logger {
  int64_t every;
  void maybe_log(int64_t step, const torch::Tensor& loss) const {
    if (step % every == 0) std::printf("step %lld loss %.4f\n", static_cast<long long>(step), loss.item<float>());
  }
};

template <typename ModelT, typename LossFn>
class Trainer {
 public:
  Trainer(ModelT model, torch::Device device, double lr, LossFn loss_fn)
      : model_(std::move(model)), device_(device), opt_(model_->parameters(), torch::optim::SGDOptions(lr).momentum(0.9)),
        loss_fn_(std::move(loss_fn)) {
    model_->to(device_);
  }

  void fit(const torch::Tensor& x, const torch::Tensor& y, int epochs, int64_t bs, const Logger& log) {
    model_->train();
    opt_.zero_grad();
    int64_t step = 0;
    for (int e = 0; e < epochs; ++e) {
      auto perm = torch::randperm(x.size(0), torch::TensorOptions().dtype(torch::kLong).device(device_));
      for (int64_t i = 0; i + bs <= x.size(0); i += bs) {
        auto idx = perm.narrow(0, i, bs);
        auto loss = train_step(x.index_select(0, idx), y.index_select(0, idx));
        log.maybe_log(step++, loss);
      }
    }
  }

 private:
  torch::Tensor train_step(const torch::Tensor& xb, const torch::Tensor& yb) {
    auto loss = loss_fn_(model_->forward(xb), yb);
    loss.backward();
    opt_.step();  // BUG(training-missing-zero-grad): fit() clears the gradients once before its loops; train_step() runs for every batch and never clears them again
    return loss.detach();
  }

  ModelT model_;
  torch::Device device_;
  torch::optim::SGD opt_;
  LossFn loss_fn_;
};

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  const auto opts = torch::TensorOptions().device(device);
  auto x = torch::randn({30000, 12}, opts);
  auto w = torch::randn({12, 3}, opts);
  auto y = x.matmul(w).argmax(1);

  auto ce = [](const torch::Tensor& logits, const torch::Tensor& target) {
    return torch::cross_entropy_loss(logits, target, {}, at::Reduction::Mean, -100, /*label_smoothing=*/0.05);
  };
  Trainer<TabularNet, decltype(ce)> trainer(TabularNet(12), device, 0.05, ce);
  trainer.fit(x, y, 20, 128, Logger{500});
  return 0;
}
