// Monocular depth regression with a small encoder-decoder; batches come from torch::data.
#include <torch/torch.h>

#include <cmath>
#include <iostream>

class DepthPairs : public torch::data::datasets::Dataset<DepthPairs> {
 public:
  explicit DepthPairs(size_t n) : n_(n) {}
  torch::data::Example<> get(size_t) override {
    auto rgb = torch::rand({3, 96, 128});
    auto depth = 1.0 + 9.0 * rgb.mean(0, true);
    return {rgb, depth};
  }
  torch::optional<size_t> size() const override { return n_; }

 private:
  size_t n_;
};

struct DepthNetImpl : torch::nn::Module {
  DepthNetImpl() {
    enc = register_module("enc", torch::nn::Sequential(
                                     torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 32, 3).stride(2).padding(1)), torch::nn::ELU(),
                                     torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 64, 3).stride(2).padding(1)), torch::nn::ELU()));
    dec = register_module("dec", torch::nn::Sequential(
                                     torch::nn::ConvTranspose2d(torch::nn::ConvTranspose2dOptions(64, 32, 4).stride(2).padding(1)), torch::nn::ELU(),
                                     torch::nn::ConvTranspose2d(torch::nn::ConvTranspose2dOptions(32, 1, 4).stride(2).padding(1)), torch::nn::Softplus()));
  }
  torch::Tensor forward(const torch::Tensor& x) { return dec->forward(enc->forward(x)); }
  torch::nn::Sequential enc{nullptr}, dec{nullptr};
};
TORCH_MODULE(DepthNet);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  DepthNet net;
  net->to(device);
  torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(2e-4));
  auto train = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      DepthPairs(2000).map(torch::data::transforms::Stack<>()), 16);
  auto val = torch::data::make_data_loader(DepthPairs(200).map(torch::data::transforms::Stack<>()), 16);

  for (int epoch = 0; epoch < 20; ++epoch) {
    net->train();
    for (auto& batch : *train) {
      auto pred = net->forward(batch.data.to(device));
      auto loss = torch::nn::functional::smooth_l1_loss(pred, batch.target);  // BUG(device-unmoved-target): the depth maps stay on the CPU, pred is on device
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
    torch::NoGradGuard no_grad;
    net->eval();
    double abs_rel = 0, rmse_cpu = 0;
    int64_t n = 0;
    for (auto& batch : *val) {
      auto pred = net->forward(batch.data.to(device));
      auto gt = batch.target.to(device);
      abs_rel += ((pred - gt).abs() / gt).mean().item<double>();
      rmse_cpu += torch::mse_loss(pred.cpu(), batch.target).sqrt().item<double>();
      ++n;
    }
    std::cout << "epoch " << epoch << " abs_rel " << abs_rel / n << " rmse " << rmse_cpu / n << "\n";
  }
}
