// GRU forecaster for noisy multi-frequency sine series: predict the next 16 values
// from the previous 64.
#include <torch/torch.h>

#include <cmath>
#include <cstdio>

struct ForecasterImpl : torch::nn::Module {
  ForecasterImpl(int64_t hidden, int64_t horizon)
      : gru(register_module("gru", torch::nn::GRU(torch::nn::GRUOptions(1, hidden).num_layers(2).batch_first(true).dropout(0.1)))),
        head(register_module("head", torch::nn::Linear(hidden, horizon))) {}
  torch::Tensor forward(const torch::Tensor& history) {  // [B, T]
    auto out = std::get<0>(gru->forward(history.unsqueeze(-1)));
    return head->forward(out.select(1, -1));
  }
  torch::nn::GRU gru;
  torch::nn::Linear head;
};
TORCH_MODULE(Forecaster);

static torch::Tensor make_series(int64_t n, int64_t len, const torch::TensorOptions& opts) {
  auto t = torch::arange(len, opts).unsqueeze(0);
  auto freq = torch::rand({n, 1}, opts) * 0.2 + 0.02;
  auto phase = torch::rand({n, 1}, opts) * 2 * M_PI;
  return torch::sin(freq * t + phase) + 0.5 * torch::sin(3 * freq * t) + 0.05 * torch::randn({n, len}, opts);
}

// Mean of the per-batch losses kept on the device; read once per epoch.
static double epoch_summary(const torch::Tensor& loss_sum, int64_t batches) {
  return loss_sum.item<double>() / static_cast<double>(batches);
}

int main() {
  const auto device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  const auto opts = torch::TensorOptions().device(device);
  auto series = make_series(20000, 80, opts);
  auto history = series.slice(1, 0, 64), future = series.slice(1, 64, 80);

  Forecaster model(128, 16);
  model->to(device);
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-3));
  torch::optim::StepLR sched(opt, /*step_size=*/10, /*gamma=*/0.5);

  const int64_t bs = 256;
  for (int epoch = 0; epoch < 40; ++epoch) {
    model->train();
    opt.zero_grad();  // once per epoch, not per batch
    auto perm = torch::randperm(series.size(0), opts.dtype(torch::kLong));
    auto loss_sum = torch::zeros({}, opts);
    int64_t batches = 0;
    for (int64_t i = 0; i + bs <= perm.size(0); i += bs, ++batches) {
      auto idx = perm.narrow(0, i, bs);
      auto pred = model->forward(history.index_select(0, idx));
      auto loss = torch::smooth_l1_loss(pred, future.index_select(0, idx));
      loss.backward();
      torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
      opt.step();  // BUG(training-missing-zero-grad): the gradients are cleared only once per epoch, above the batch loop: within an epoch every step adds to the gradients of all previous batches
      loss_sum += loss.detach();
    }
    sched.step();
    std::printf("epoch %d  loss %.5f\n", epoch, epoch_summary(loss_sum, batches));
  }
  torch::save(model, "forecaster.pt");
}
