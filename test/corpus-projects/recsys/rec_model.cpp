// recsys: dot product of embeddings + item bias + log popularity.
#include "rec_model.h"

namespace rec {

FactorModelImpl::FactorModelImpl(int64_t users, int64_t items, int64_t dim, const torch::Tensor& item_counts) {
  user_emb_ = register_module("user_emb", torch::nn::Embedding(users, dim));
  item_emb_ = register_module("item_emb", torch::nn::Embedding(items, dim));
  item_bias_ = register_parameter("item_bias", torch::zeros({items}));
  log_popularity_ = register_buffer("log_popularity", torch::log1p(item_counts.to(torch::kFloat)));
}

torch::Tensor FactorModelImpl::forward(const torch::Tensor& users, const torch::Tensor& items) {
  auto dot = (user_emb_(users) * item_emb_(items)).sum(1);
  return dot + item_bias_.index({items}) + 0.1 * log_popularity_.index({items});
}

torch::Tensor FactorModelImpl::score_all(const torch::Tensor& users) {
  return user_emb_(users).mm(item_emb_->weight.t()) + item_bias_ + 0.1 * log_popularity_;
}

PopularityImpl::PopularityImpl(const torch::Tensor& item_counts) {
  counts_ = register_buffer("counts", item_counts.to(torch::kFloat));
}

torch::Tensor PopularityImpl::forward(const torch::Tensor& users) {
  return counts_.unsqueeze(0).expand({users.size(0), counts_.size(0)}) + torch::zeros({users.size(0), 1});
}

}  // namespace rec
