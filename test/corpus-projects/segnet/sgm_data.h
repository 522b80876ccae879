// segnet: synthetic images and their masks, on the CPU as a dataset yields them.
#pragma once
#include <torch/torch.h>

#include <utility>

namespace sgm {

// (images (N, 3, S, S) float, masks (N, S, S) int64)
std::pair<torch::Tensor, torch::Tensor> synth_batch(int64_t n, int64_t size, int64_t num_classes);
// The per-channel mean the images are normalised with, (1, 3, 1, 1).
torch::Tensor dataset_mean();

}  // namespace sgm
