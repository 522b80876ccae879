// recsys: user u prefers items near 5 * (u % 8).
#include "rec_data.h"

namespace rec {

std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> interactions(int64_t n, uint64_t seed) {
  torch::manual_seed(seed);
  auto users = torch::randint(kUsers, {n}, torch::kLong);
  auto offset = torch::randint(0, 5, {n}, torch::kLong);
  auto items = ((users % 8) * 5 + offset) % kItems;
  auto weights = torch::ones({n});
  return {users, items, weights};
}

torch::Tensor item_counts(const torch::Tensor& items) { return torch::bincount(items, {}, kItems); }

}  // namespace rec
