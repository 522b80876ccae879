// segnet: a two-scale fully convolutional segmentation network.
#pragma once
#include <torch/torch.h>

#include "sgm_blocks.h"

namespace sgm {

class SegNetImpl : public torch::nn::Module {
 public:
  explicit SegNetImpl(int64_t num_classes);
  torch::Tensor forward(const torch::Tensor& images);  // (N, C, H, W) logits

 private:
  CoordConv stem_{nullptr};
  torch::nn::Conv2d down_{nullptr}, head_{nullptr};
  torch::nn::BatchNorm2d norm_{nullptr};
};
TORCH_MODULE(SegNet);

}  // namespace sgm
