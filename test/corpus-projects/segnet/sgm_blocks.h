// segnet: building blocks shared by the segmentation model.
#pragma once
#include <torch/torch.h>

namespace sgm {

// A convolution that also sees each pixel's coordinates (CoordConv): two extra input channels.
class CoordConvImpl : public torch::nn::Module {
 public:
  CoordConvImpl(int64_t in_channels, int64_t out_channels);
  torch::Tensor forward(const torch::Tensor& x);

 private:
  torch::nn::Conv2d conv_{nullptr};
};
TORCH_MODULE(CoordConv);

}  // namespace sgm
