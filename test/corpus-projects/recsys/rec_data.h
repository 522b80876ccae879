// recsys: synthetic implicit-feedback interactions.
#pragma once
#include <torch/torch.h>

#include <tuple>

namespace rec {

constexpr int64_t kUsers = 32;
constexpr int64_t kItems = 40;

// (users, positive items, weights), each (N), on the CPU.
std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> interactions(int64_t n, uint64_t seed);
// How often each item occurs in `items`: (kItems) int64.
torch::Tensor item_counts(const torch::Tensor& items);

}  // namespace rec
