#include "model.h"

namespace {

torch::nn::Sequential conv_stage(int64_t in, int64_t out) {
  return torch::nn::Sequential(
      torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 3).padding(1).bias(false)),
      torch::nn::BatchNorm2d(out),
      torch::nn::ReLU(),
      torch::nn::Conv2d(torch::nn::Conv2dOptions(out, out, 3).padding(1).bias(false)),
      torch::nn::BatchNorm2d(out),
      torch::nn::ReLU(),
      torch::nn::MaxPool2d(2));
}

}  // namespace

ShapesNetImpl::ShapesNetImpl(const ShapesNetOptions& opts) : opts_(opts) {
  stage1_ = register_module("stage1", conv_stage(opts.in_channels, opts.width));
  stage2_ = register_module("stage2", conv_stage(opts.width, 2 * opts.width));
  head_ = register_module("head", torch::nn::Linear(2 * opts.width, opts.num_classes));
  aux_head_ = torch::nn::Linear(opts.width, opts.num_classes);
  dropout_ = register_module("dropout", torch::nn::Dropout(opts.dropout));

  pixel_mean_ = register_buffer("pixel_mean", torch::tensor({0.485, 0.456, 0.406}).view({1, 3, 1, 1}));
  pixel_std_ = torch::tensor({0.229, 0.224, 0.225}).view({1, 3, 1, 1});
  register_buffer("pixel_std", pixel_std_);

  // Log-prior of the class frequencies, added to the main logits.
  logit_bias_ = torch::zeros({opts.num_classes});
}

torch::Tensor ShapesNetImpl::normalize(const torch::Tensor& images) const {
  return (images - pixel_mean_) / pixel_std_;
}

std::vector<torch::Tensor> ShapesNetImpl::forward(torch::Tensor images) {
  auto x = normalize(images);
  auto f1 = stage1_->forward(x);
  auto f2 = stage2_->forward(f1);

  auto pooled1 = torch::adaptive_avg_pool2d(f1, {1, 1}).flatten(1);
  auto pooled2 = torch::adaptive_avg_pool2d(f2, {1, 1}).flatten(1);

  auto main_logits = head_->forward(dropout_->forward(pooled2)) + logit_bias_;
  auto aux_logits = aux_head_->forward(pooled1);
  return {main_logits, aux_logits};
}

torch::Tensor ShapesNetImpl::predict(torch::Tensor images) {
  return forward(std::move(images)).front();
}
