// A reusable training harness: generic fit/validate templates shared by several small models.
#include <torch/torch.h>

#include <iostream>
#include <string>
#include <vector>

using Batches = std::vector<torch::data::Example<>>;

struct SpeechCommandNetImpl : torch::nn::Module {
  SpeechCommandNetImpl()
      : conv(register_module("conv", torch::nn::Conv1d(torch::nn::Conv1dOptions(40, 64, 5).padding(2)))),
        pool(register_module("pool", torch::nn::AdaptiveAvgPool1d(1))),
        fc(register_module("fc", torch::nn::Linear(64, 12))) {}
  torch::Tensor forward(const torch::Tensor& mfcc) {
    return torch::log_softmax(fc(pool(torch::relu(conv(mfcc))).squeeze(-1)), -1);
  }
  torch::nn::Conv1d conv;
  torch::nn::AdaptiveAvgPool1d pool;
  torch::nn::Linear fc;
};
TORCH_MODULE(SpeechCommandNet);

template <typename Model>
double fit_epoch(Model& model, const Batches& batches, torch::optim::Optimizer& opt, torch::Device device) {
  model->train();
  double total = 0;
  for (const auto& batch : batches) {
    auto input = batch.data.to(device);
    auto out = model->forward(input);
    auto loss = torch::nll_loss(out, batch.target);  // BUG(device-unmoved-target): the input was moved, the target was not
    opt.zero_grad();
    loss.backward();
    opt.step();
    total += loss.template item<double>();
  }
  return total / batches.size();
}

// Accuracy on a held-out set; the model is wherever the caller put it.
double validate(SpeechCommandNet& model, const Batches& batches) {
  torch::NoGradGuard no_grad;
  model->eval();
  int64_t hits = 0, n = 0;
  for (const auto& batch : batches) {
    auto pred = model->forward(batch.data).argmax(1);  // BUG(device-unmoved-input): main() moved the model to device; batch.data is a CPU batch
    hits += pred.eq(batch.target.to(pred.device())).sum().item<int64_t>();
    n += batch.target.size(0);
  }
  return static_cast<double>(hits) / std::max<int64_t>(n, 1);
}

Batches synthetic(int n, int64_t bs) {
  Batches out;
  for (int i = 0; i < n; ++i) out.push_back({torch::randn({bs, 40, 98}), torch::randint(0, 12, {bs}, torch::kLong)});
  return out;
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  SpeechCommandNet model;
  model->to(device);
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-3));
  auto train = synthetic(100, 32), val = synthetic(20, 64);
  for (int epoch = 0; epoch < 15; ++epoch) {
    double loss = fit_epoch(model, train, opt, device);
    double acc = validate(model, val);
    std::cout << "epoch " << epoch << " loss " << loss << " val acc " << acc << "\n";
  }
  torch::save(model, "speech_commands.pt");
}
