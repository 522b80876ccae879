// recsys: losses on whatever device the scores are on; metrics on host copies.
#include "rec_metrics.h"

namespace rec {

torch::Tensor bpr_loss(const torch::Tensor& pos_scores, const torch::Tensor& neg_scores, const torch::Tensor& weights) {
  return -(weights * torch::log_sigmoid(pos_scores - neg_scores)).mean();
}

torch::Tensor l2_penalty(const std::vector<torch::Tensor>& params) {
  auto total = torch::zeros({}, params.front().options());
  for (const auto& p : params) total = total + p.pow(2).sum();
  return total;
}

torch::Tensor mask_seen(const torch::Tensor& scores, const torch::Tensor& seen) {
  auto masked = scores.clone();
  auto rows = torch::arange(scores.size(0));
  masked.index_put_({rows, seen}, torch::full({scores.size(0)}, -1e9));
  return masked;
}

double hit_rate_at_k(const torch::Tensor& scores, const torch::Tensor& held_out, int64_t k) {
  auto top = std::get<1>(scores.topk(k, 1));
  auto t = top.accessor<int64_t, 2>();
  auto h = held_out.accessor<int64_t, 1>();
  int64_t hits = 0;
  for (int64_t i = 0; i < t.size(0); ++i)
    for (int64_t j = 0; j < k; ++j) hits += t[i][j] == h[i];
  return static_cast<double>(hits) / static_cast<double>(t.size(0));
}

}  // namespace rec
