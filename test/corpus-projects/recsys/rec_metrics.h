// recsys: the BPR loss, an L2 penalty and ranking metrics.
#pragma once
#include <torch/torch.h>

#include <vector>

namespace rec {

torch::Tensor bpr_loss(const torch::Tensor& pos_scores, const torch::Tensor& neg_scores, const torch::Tensor& weights);
torch::Tensor l2_penalty(const std::vector<torch::Tensor>& params);
// Masks the items each user already saw: scores (N, items), seen (N) item ids.
torch::Tensor mask_seen(const torch::Tensor& scores, const torch::Tensor& seen);
// Hit rate at k of held-out items, computed on the host: both arguments are CPU tensors.
double hit_rate_at_k(const torch::Tensor& scores, const torch::Tensor& held_out, int64_t k);

}  // namespace rec
