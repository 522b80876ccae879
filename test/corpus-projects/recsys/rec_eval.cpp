// recsys: evaluation entry point: hit rate at 5 of the model against the popularity baseline.
#include <iostream>

#include "rec_data.h"
#include "rec_metrics.h"
#include "rec_model.h"

int main(int argc, char** argv) {
  const std::string ckpt = argc > 1 ? argv[1] : "/tmp/torch-tidy-corpus-projects/rec_factors.pt";
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  auto [train_users, train_items, train_weights] = rec::interactions(512, 0);
  auto [users, held_out, weights] = rec::interactions(64, 1);
  auto counts = rec::item_counts(train_items);

  rec::FactorModel model(rec::kUsers, rec::kItems, 8, counts);
  model->to(device);
  torch::load(model, ckpt, device);
  model->eval();
  rec::Popularity baseline(counts);
  baseline->to(torch::kCPU);

  torch::NoGradGuard no_grad;
  auto scores = model->score_all(users.to(device)).cpu();
  auto base_scores = baseline->forward(users);
  std::cout << "hit@5 model " << rec::hit_rate_at_k(rec::mask_seen(scores, train_items.slice(0, 0, 64)), held_out, 5)
            << " popularity " << rec::hit_rate_at_k(base_scores, held_out, 5) << "\n";
  return 0;
}
