// imgcls: synthetic image batches (what a dataset + loader would yield, on the CPU).
#pragma once
#include <torch/torch.h>

#include <vector>

namespace ic {

struct Batch {
  torch::Tensor images;  // (N, 3, 16, 16) float
  torch::Tensor labels;  // (N) int64
};

std::vector<Batch> synthetic_loader(int64_t batches, int64_t batch_size, int64_t num_classes, uint64_t seed);

}  // namespace ic
