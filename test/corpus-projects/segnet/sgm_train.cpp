// segnet: training entry point (Adam, weighted cross-entropy + Dice).
#include <iostream>

#include "sgm_data.h"
#include "sgm_losses.h"
#include "sgm_model.h"

namespace F = torch::nn::functional;

int main(int argc, char** argv) {
  const std::string ckpt = argc > 1 ? argv[1] : "/tmp/torch-tidy-corpus-projects/sgm_segnet.pt";
  constexpr int64_t kClasses = 3;
  torch::manual_seed(0);
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  sgm::SegNet model(kClasses);
  model->to(device);
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-2));
  auto mean = sgm::dataset_mean();
  auto weights = sgm::class_weights(kClasses);

  for (int step = 0; step < 5; ++step) {
    auto [images, masks] = sgm::synth_batch(4, 16, kClasses);
    auto x = images.to(device) - mean.to(device);  // BUG(device-loop-invariant-to): 'mean' (sgm_data.cpp) never changes, yet is copied to the device on every step
    auto y = masks.to(device);
    opt.zero_grad();
    auto logits = model->forward(x);
    auto loss = F::cross_entropy(logits, y, F::CrossEntropyFuncOptions().weight(weights)) +
                0.5 * sgm::dice_loss(logits, y, kClasses);
    loss.backward();
    opt.step();
    std::cout << "step " << step << " loss " << loss.item<float>() << "\n";
  }
  torch::save(model, ckpt);
  return 0;
}
