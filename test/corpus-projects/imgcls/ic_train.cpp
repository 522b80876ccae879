// imgcls: training entry point (SGD with momentum, a weight EMA, a checkpoint at the end).
#include <iostream>

#include "ic_data.h"
#include "ic_metrics.h"
#include "ic_model.h"

int main(int argc, char** argv) {
  const std::string ckpt = argc > 1 ? argv[1] : "/tmp/torch-tidy-corpus-projects/ic_classifier.pt";
  torch::manual_seed(0);
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  ic::Classifier model(10);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
  auto ema = ic::snapshot_weights(model);
  auto loader = ic::synthetic_loader(4, 8, 10, 1);

  for (int epoch = 0; epoch < 2; ++epoch) {
    double running = 0;
    for (auto& batch : loader) {
      auto x = batch.images.to(device);
      auto y = batch.labels.to(device);
      opt.zero_grad();
      auto loss = ic::smoothed_cross_entropy(model(x), y, 0.1);
      loss.backward();
      opt.step();
      ic::update_ema(ema, model, 0.99);
      running += loss.item<double>();
    }
    std::cout << "epoch " << epoch << " loss " << running / loader.size() << "\n";
  }
  torch::save(model, ckpt);
  return 0;
}
