// ShapesNet: a small convolutional classifier with a deep-supervision head.
#pragma once

#include <torch/torch.h>

#include <vector>

struct ShapesNetOptions {
  int64_t in_channels = 3;
  int64_t num_classes = 10;
  int64_t width = 32;
  double dropout = 0.1;
};

class ShapesNetImpl : public torch::nn::Module {
 public:
  explicit ShapesNetImpl(const ShapesNetOptions& opts);

  // Returns {main logits, auxiliary logits}; both are [N, num_classes].
  std::vector<torch::Tensor> forward(torch::Tensor images);

  // Logits of the main head only (inference path).
  torch::Tensor predict(torch::Tensor images);

  int64_t num_classes() const { return opts_.num_classes; }

 private:
  torch::Tensor normalize(const torch::Tensor& images) const;

  ShapesNetOptions opts_;
  torch::nn::Sequential stage1_{nullptr};
  torch::nn::Sequential stage2_{nullptr};
  torch::nn::Linear head_{nullptr};
  torch::nn::Linear aux_head_{nullptr};  // BUG(device-unregistered-member): assigned in the ctor without register_module: Module::to and parameters() never see it
  torch::nn::Dropout dropout_{nullptr};

  torch::Tensor pixel_mean_;   // from register_buffer: moves with the module
  torch::Tensor pixel_std_;    // aliases a registered buffer (the return value is ignored): still moves
  torch::Tensor logit_bias_;  // BUG(device-unregistered-member): plain tensor member, never registered; stays on the CPU after model->to(device)
};
TORCH_MODULE(ShapesNet);
