// Anchor generation, IoU matching and box coding for a one-stage detector.
#pragma once

#include <torch/torch.h>

#include <vector>

// [H*W*A, 4] anchors (x1, y1, x2, y2) for one feature level.
torch::Tensor grid_anchors(int64_t feat_h, int64_t feat_w, int64_t stride, const std::vector<double>& sizes,
                           const std::vector<double>& ratios);

// [N, M] IoU between two sets of boxes (same device).
torch::Tensor box_iou(const torch::Tensor& a, const torch::Tensor& b);

struct Assignment {
  torch::Tensor labels;   // [A] int64: -1 ignore, 0 background, 1 foreground
  torch::Tensor matched;  // [A] int64 index of the matched ground-truth box
};

// Assigns every anchor to its best ground-truth box by IoU.
Assignment assign(const torch::Tensor& anchors, const torch::Tensor& gt_boxes, double pos_iou, double neg_iou);

torch::Tensor encode(const torch::Tensor& anchors, const torch::Tensor& boxes);
torch::Tensor decode(const torch::Tensor& anchors, const torch::Tensor& deltas);
