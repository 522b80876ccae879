// A detection head whose anchors and refinement layer were never registered with the module.
#include <torch/torch.h>

#include <vector>

class DetectionHeadImpl : public torch::nn::Module {
 public:
  DetectionHeadImpl(int64_t channels, int64_t num_anchors) {
    cls_ = register_module("cls", torch::nn::Conv2d(torch::nn::Conv2dOptions(channels, num_anchors, 1)));
    box_ = register_module("box", torch::nn::Conv2d(torch::nn::Conv2dOptions(channels, 4 * num_anchors, 1)));
    refine_ = torch::nn::Conv2d(torch::nn::Conv2dOptions(4 * num_anchors, 4 * num_anchors, 1));
    anchors_ = torch::tensor({8.0, 16.0, 32.0}).view({1, num_anchors, 1, 1});
    stride_ = register_buffer("stride", torch::full({1}, 8.0));
    pixel_mean_ = torch::zeros({1, channels, 1, 1});
    register_buffer("pixel_mean", pixel_mean_);
    temperature_ = register_parameter("temperature", torch::ones({1}));
    debug_counts_ = torch::zeros({num_anchors}, torch::kLong);
  }

  std::vector<torch::Tensor> forward(const torch::Tensor& features) {
    auto x = features - pixel_mean_;
    auto scores = torch::sigmoid(cls_->forward(x) / temperature_);
    auto deltas = refine_->forward(box_->forward(x));
    auto sizes = anchors_ * deltas.narrow(1, 0, anchors_.size(1)).exp() * stride_;
    return {scores, deltas, sizes};
  }

  // Host-side bookkeeping only; never meets device tensors.
  void count(int64_t anchor) { debug_counts_[anchor] += 1; }

 private:
  torch::nn::Conv2d cls_{nullptr};
  torch::nn::Conv2d box_{nullptr};
  torch::nn::Conv2d refine_{nullptr};  // BUG(device-unregistered-member): assigned without register_module; not moved, not in parameters()
  torch::Tensor anchors_;  // BUG(device-unregistered-member): plain tensor member used in forward; Module::to leaves it on the CPU
  torch::Tensor stride_;
  torch::Tensor pixel_mean_;  // aliases the registered buffer (return value ignored): moved in place
  torch::Tensor temperature_;
  torch::Tensor debug_counts_;
};
TORCH_MODULE(DetectionHead);

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  DetectionHead head(16, 3);
  head->to(device);
  torch::optim::SGD opt(head->parameters(), 0.01);
  auto features = torch::randn({2, 16, 8, 8}, torch::TensorOptions().device(device));
  auto outs = head->forward(features);
  auto loss = outs[0].mean() + outs[2].mean();
  opt.zero_grad();
  loss.backward();
  opt.step();
  head->count(1);
  return 0;
}
