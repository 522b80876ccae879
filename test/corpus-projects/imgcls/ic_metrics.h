// imgcls: the training loss and the evaluation metric.
#pragma once
#include <torch/torch.h>

namespace ic {

torch::Tensor smoothed_cross_entropy(const torch::Tensor& logits, const torch::Tensor& target, double eps);
double accuracy(const torch::Tensor& logits, const torch::Tensor& target);

}  // namespace ic
