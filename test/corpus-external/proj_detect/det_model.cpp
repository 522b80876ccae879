#include "det_model.h"

namespace nn = torch::nn;

RetinaLiteImpl::RetinaLiteImpl(int64_t num_classes, int64_t num_anchors)
    : num_classes_(num_classes), num_anchors_(num_anchors) {
  backbone_ = register_module("backbone", nn::Sequential(
                                              nn::Conv2d(nn::Conv2dOptions(3, 32, 3).stride(2).padding(1)), nn::ReLU(),
                                              nn::Conv2d(nn::Conv2dOptions(32, 64, 3).stride(2).padding(1)), nn::ReLU(),
                                              nn::Conv2d(nn::Conv2dOptions(64, 128, 3).stride(2).padding(1)), nn::ReLU()));
  heads_ = register_module("heads", nn::ModuleList());
  heads_->push_back(nn::Conv2d(nn::Conv2dOptions(128, num_anchors * num_classes, 3).padding(1)));
  heads_->push_back(nn::Conv2d(nn::Conv2dOptions(128, num_anchors * 4, 3).padding(1)));
  pixel_mean_ = register_buffer("pixel_mean", torch::tensor({123.7f, 116.3f, 103.5f}).view({1, 3, 1, 1}));
  pixel_std_ = torch::tensor({58.4f, 57.1f, 57.4f}).view({1, 3, 1, 1});
}

std::pair<torch::Tensor, torch::Tensor> RetinaLiteImpl::forward(const torch::Tensor& images) {
  auto x = (images - pixel_mean_) / pixel_std_;
  auto f = backbone_->forward(x);
  const int64_t B = f.size(0);
  auto cls = heads_[0]->as<nn::Conv2d>()->forward(f);
  auto box = heads_[1]->as<nn::Conv2d>()->forward(f);
  cls = cls.permute({0, 2, 3, 1}).reshape({B, -1, num_classes_});
  box = box.permute({0, 2, 3, 1}).reshape({B, -1, 4});
  return {cls, box};
}
