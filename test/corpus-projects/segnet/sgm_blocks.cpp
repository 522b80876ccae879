// segnet: CoordConv appends a y and an x coordinate channel in [-1, 1] to its input.
#include "sgm_blocks.h"

namespace sgm {

CoordConvImpl::CoordConvImpl(int64_t in_channels, int64_t out_channels)
    : conv_(register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(in_channels + 2, out_channels, 3).padding(1)))) {}

torch::Tensor CoordConvImpl::forward(const torch::Tensor& x) {
  const auto n = x.size(0), h = x.size(2), w = x.size(3);
  auto ys = torch::linspace(-1.0, 1.0, h).view({1, 1, h, 1}).expand({n, 1, h, w});  // BUG(device-factory-without-device): this block is registered by SegNet (sgm_model.cpp), which sgm_train.cpp moves to the device; the y channel stays on the CPU and meets x in cat
  auto xs = torch::linspace(-1.0, 1.0, w, x.options()).view({1, 1, 1, w}).expand({n, 1, h, w});
  return conv_(torch::cat({x, ys, xs}, 1));
}

}  // namespace sgm
