// yolo: the grid of cell offsets the head's box regression is relative to.
#pragma once
#include <torch/torch.h>

namespace od {

// (1, h, w, 2) float: the (x, y) index of every cell.
torch::Tensor make_grid(int64_t h, int64_t w);

}  // namespace od
