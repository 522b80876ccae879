// recsys: training entry point (BPR with sampled negatives, Adam).
#include <iostream>

#include "rec_data.h"
#include "rec_metrics.h"
#include "rec_model.h"

int main(int argc, char** argv) {
  const std::string ckpt = argc > 1 ? argv[1] : "/tmp/torch-tidy-corpus-projects/rec_factors.pt";
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  auto [users, items, weights] = rec::interactions(512, 0);
  rec::FactorModel model(rec::kUsers, rec::kItems, 8, rec::item_counts(items));
  model->to(device);
  users = users.to(device);
  items = items.to(device);
  weights = weights.to(device);
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(5e-2));

  for (int epoch = 0; epoch < 5; ++epoch) {
    auto negatives = torch::randint(rec::kItems, items.sizes(), items.options());
    opt.zero_grad();
    auto loss = rec::bpr_loss(model->forward(users, items), model->forward(users, negatives), weights) +
                1e-4 * rec::l2_penalty(model->parameters());
    loss.backward();
    opt.step();
    std::cout << "epoch " << epoch << " loss " << loss.item<float>() << "\n";
  }
  torch::save(model, ckpt);
  return 0;
}
