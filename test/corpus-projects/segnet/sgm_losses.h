// segnet: losses and metrics.
#pragma once
#include <torch/torch.h>

namespace sgm {

// Cross-entropy class weights: the background is most of every image.
torch::Tensor class_weights(int64_t num_classes);
torch::Tensor dice_loss(const torch::Tensor& logits, const torch::Tensor& target, int64_t num_classes);
// (C, C) counts, rows: target class, columns: predicted class.
torch::Tensor confusion_matrix(const torch::Tensor& pred, const torch::Tensor& target, int64_t num_classes);
double mean_iou(const torch::Tensor& confusion);

}  // namespace sgm
