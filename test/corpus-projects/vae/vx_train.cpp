// vae: training entry point (Adam, KL annealing).
#include <iostream>

#include "vx_data.h"
#include "vx_losses.h"
#include "vx_model.h"

int main(int argc, char** argv) {
  const std::string ckpt = argc > 1 ? argv[1] : "/tmp/torch-tidy-corpus-projects/vx_vae.pt";
  torch::manual_seed(0);
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  vx::VAE model(64, 4);
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-3));
  auto batches = vx::make_batches(4, 16);

  int64_t step = 0;
  for (int epoch = 0; epoch < 2; ++epoch) {
    for (auto& batch : batches) {
      auto x = batch.x.to(device);
      opt.zero_grad();
      auto out = model->forward(x);  // BUG(device-unmoved-module): this program never moves 'model' (vx_eval.cpp moves its own instance), yet its input is moved to the device
      auto loss = vx::elbo_loss(out, x, vx::beta_weight(step++, 6));
      loss.backward();
      opt.step();
    }
    std::cout << "epoch " << epoch << " done\n";
  }
  torch::save(model, ckpt);
  return 0;
}
