// imgcls: evaluation entry point: load the checkpoint, report accuracy on held-out batches.
#include <iostream>

#include "ic_data.h"
#include "ic_metrics.h"
#include "ic_model.h"

int main(int argc, char** argv) {
  const std::string ckpt = argc > 1 ? argv[1] : "/tmp/torch-tidy-corpus-projects/ic_classifier.pt";
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  ic::Classifier model(10);
  model->to(device);
  ic::load_checkpoint(model, ckpt);
  model->eval();

  torch::NoGradGuard no_grad;
  auto loader = ic::synthetic_loader(2, 8, 10, 7);
  double acc = 0;
  for (const auto& batch : loader) {
    auto logits = model(batch.images.to(device));
    acc += ic::accuracy(logits, batch.labels);
  }
  std::cout << "accuracy " << acc / loader.size() << "\n";
  return 0;
}
