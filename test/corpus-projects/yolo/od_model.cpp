// yolo: backbone with two stride-2 convolutions, a 1x1 head, and the box decoding.
#include "od_model.h"

#include "od_anchors.h"

namespace od {

using torch::nn::Conv2dOptions;

TinyYoloImpl::TinyYoloImpl(int64_t num_classes, double stride) : num_classes_(num_classes), stride_(stride) {
  backbone_ = register_module("backbone", torch::nn::Sequential(
      torch::nn::Conv2d(Conv2dOptions(3, 16, 3).stride(2).padding(1)), torch::nn::SiLU(),
      torch::nn::Conv2d(Conv2dOptions(16, 32, 3).stride(2).padding(1)), torch::nn::SiLU()));
  head_ = register_module("head", torch::nn::Conv2d(Conv2dOptions(32, 5 + num_classes, 1)));
  anchor_wh_ = register_buffer("anchor_wh", torch::tensor({6.0, 6.0}));
}

torch::Tensor TinyYoloImpl::forward(const torch::Tensor& images) {
  return head_(backbone_->forward(images)).permute({0, 2, 3, 1}).contiguous();
}

std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> TinyYoloImpl::decode(const torch::Tensor& raw) {
  const auto n = raw.size(0), h = raw.size(1), w = raw.size(2);
  auto xy = (torch::sigmoid(raw.slice(3, 0, 2)) + make_grid(h, w)) * stride_;
  auto wh = torch::exp(raw.slice(3, 2, 4)) * anchor_wh_;
  auto boxes = torch::cat({xy - wh / 2, xy + wh / 2}, -1).view({n, h * w, 4});
  return {boxes, raw.select(3, 4).reshape({n, h * w}), raw.slice(3, 5).reshape({n, h * w, num_classes_})};
}

void load_detector(TinyYolo& model, const std::string& path, torch::Device device) {
  model->to(device);
  torch::load(model, path);  // BUG(device-load-without-device): the model was just moved to 'device'; the load puts the weights back where the checkpoint was saved from
}

}  // namespace od
