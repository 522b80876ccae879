// imgcls: class-dependent colour blobs, so that a few steps already learn something.
#include "ic_data.h"

namespace ic {

std::vector<Batch> synthetic_loader(int64_t batches, int64_t batch_size, int64_t num_classes, uint64_t seed) {
  torch::manual_seed(seed);
  std::vector<Batch> loader;
  for (int64_t b = 0; b < batches; ++b) {
    auto labels = torch::randint(num_classes, {batch_size}, torch::kLong);
    auto tint = (labels.to(torch::kFloat) / num_classes).view({batch_size, 1, 1, 1});
    auto images = torch::rand({batch_size, 3, 16, 16}) * 0.5 + tint;
    loader.push_back({images, labels});
  }
  return loader;
}

}  // namespace ic
