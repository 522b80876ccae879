// A CPU-only program: no accelerator is ever named, so CPU factories are all fine.
#include <torch/torch.h>

#include <iostream>
#include <vector>

struct RegressorImpl : torch::nn::Module {
  RegressorImpl() : body(register_module("body", torch::nn::Sequential(
                                                     torch::nn::Linear(8, 32), torch::nn::Tanh(),
                                                     torch::nn::Linear(32, 1)))) {}
  torch::Tensor forward(const torch::Tensor& x) { return body->forward(x).squeeze(1); }
  torch::nn::Sequential body;
};
TORCH_MODULE(Regressor);

std::vector<torch::Tensor> make_batches(int64_t n) {
  std::vector<torch::Tensor> out;
  for (int64_t i = 0; i < n; ++i) out.push_back(torch::randn({32, 8}));
  return out;
}

int main() {
  torch::Device device(torch::kCPU);
  Regressor model;
  model->to(device);
  torch::optim::Adam opt(model->parameters(), 1e-2);
  auto true_w = torch::linspace(-1, 1, 8);
  auto batches = make_batches(10);

  for (int epoch = 0; epoch < 5; ++epoch) {
    auto total = torch::zeros({1});
    for (auto& x : batches) {
      auto y = x.matmul(true_w) + 0.1 * torch::randn({32});
      auto pred = model->forward(x.to(device));
      auto loss = torch::mse_loss(pred, y);
      opt.zero_grad();
      loss.backward();
      opt.step();
      total += loss.detach();
    }
    std::cout << "epoch " << epoch << ' ' << total.item<double>() / 10.0 << '\n';
  }
  torch::save(model, "regressor.pt");
  Regressor restored;
  torch::load(restored, "regressor.pt");
  const float* w = restored->body->parameters().front().data_ptr<float>();
  std::cout << w[0] << '\n';
}
