// recsys: a matrix-factorisation recommender with biases and a popularity prior.
#pragma once
#include <torch/torch.h>

#include <string>

namespace rec {

class FactorModelImpl : public torch::nn::Module {
 public:
  FactorModelImpl(int64_t users, int64_t items, int64_t dim, const torch::Tensor& item_counts);
  // Scores of (user, item) pairs, both (N) int64.
  torch::Tensor forward(const torch::Tensor& users, const torch::Tensor& items);
  // Scores of every item for each user: (N, items).
  torch::Tensor score_all(const torch::Tensor& users);

 private:
  torch::nn::Embedding user_emb_{nullptr}, item_emb_{nullptr};
  torch::Tensor item_bias_;
  torch::Tensor log_popularity_;
};
TORCH_MODULE(FactorModel);

// A fixed popularity ranking, used as a CPU baseline.
class PopularityImpl : public torch::nn::Module {
 public:
  explicit PopularityImpl(const torch::Tensor& item_counts);
  torch::Tensor forward(const torch::Tensor& users);  // (N, items)

 private:
  torch::Tensor counts_;
};
TORCH_MODULE(Popularity);

}  // namespace rec
