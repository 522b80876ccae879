// segnet: stem at full resolution, one downsampled stage, upsampled and added back.
#include "sgm_model.h"

namespace sgm {

namespace F = torch::nn::functional;

SegNetImpl::SegNetImpl(int64_t num_classes) {
  stem_ = register_module("stem", CoordConv(3, 16));
  down_ = register_module("down", torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 16, 3).stride(2).padding(1)));
  norm_ = register_module("norm", torch::nn::BatchNorm2d(16));
  head_ = register_module("head", torch::nn::Conv2d(torch::nn::Conv2dOptions(16, num_classes, 1)));
}

torch::Tensor SegNetImpl::forward(const torch::Tensor& images) {
  auto full = torch::relu(stem_(images));
  auto coarse = torch::relu(norm_(down_(full)));
  auto up = F::interpolate(coarse, F::InterpolateFuncOptions()
                                       .size(std::vector<int64_t>{images.size(2), images.size(3)})
                                       .mode(torch::kBilinear)
                                       .align_corners(false));
  return head_(full + up);
}

}  // namespace sgm
