// yolo: a single-scale anchor-based detector head on a tiny backbone.
#pragma once
#include <torch/torch.h>

#include <string>
#include <tuple>

namespace od {

class TinyYoloImpl : public torch::nn::Module {
 public:
  TinyYoloImpl(int64_t num_classes, double stride);
  // (N, H, W, 5 + classes): tx, ty, tw, th, objectness, class logits
  torch::Tensor forward(const torch::Tensor& images);
  // boxes (N, H*W, 4) as x1 y1 x2 y2 pixels, objectness logits (N, H*W), class logits (N, H*W, C)
  std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> decode(const torch::Tensor& raw);

 private:
  int64_t num_classes_;
  double stride_;
  torch::nn::Sequential backbone_{nullptr};
  torch::nn::Conv2d head_{nullptr};
  torch::Tensor anchor_wh_;
};
TORCH_MODULE(TinyYolo);

// Puts the model on `device` and restores its weights.
void load_detector(TinyYolo& model, const std::string& path, torch::Device device);

}  // namespace od
