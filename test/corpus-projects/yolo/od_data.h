// yolo: synthetic images with one square object each, and per-cell targets.
#pragma once
#include <torch/torch.h>

namespace od {

struct DetBatch {
  torch::Tensor images;  // (N, 3, S, S)
  torch::Tensor boxes;   // (N, cells, 4) target box of every cell (the object's box)
  torch::Tensor labels;  // (N, cells) int64 class of every cell
};

DetBatch synth_batch(int64_t n, int64_t size, int64_t num_classes);
void to_device(DetBatch& batch, torch::Device device);

}  // namespace od
