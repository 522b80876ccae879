// A single-level RetinaNet-like detector: small backbone, class and box heads.
#pragma once

#include <torch/torch.h>

#include <utility>

class RetinaLiteImpl : public torch::nn::Module {
 public:
  RetinaLiteImpl(int64_t num_classes, int64_t num_anchors);
  // images: [B, 3, H, W] in 0..255; returns class logits [B, A_total, C] and box deltas [B, A_total, 4].
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& images);
  int64_t stride() const { return 8; }

 private:
  int64_t num_classes_, num_anchors_;
  torch::nn::Sequential backbone_{nullptr};
  torch::nn::ModuleList heads_{nullptr};
  torch::Tensor pixel_mean_;
  torch::Tensor pixel_std_;  // BUG(device-unregistered-member): det_model.cpp registers pixel_mean_ but only assigns pixel_std_; after to(device) forward() divides device images by a CPU tensor
};
TORCH_MODULE(RetinaLite);

// Writes "image_id x1 y1 x2 y2 score label" lines for the kept detections [N, 6] of one image.
void write_detections(std::ostream& out, int64_t image_id, const torch::Tensor& dets);
