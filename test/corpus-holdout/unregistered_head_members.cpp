// A detection head with per-level anchors and an optional gating layer; a couple of
// members that are correctly not registered (configuration, a per-forward cache).
#include <torch/torch.h>

#include <cstdio>
#include <vector>

struct AnchorHeadImpl : torch::nn::Module {
  AnchorHeadImpl(int64_t channels, std::vector<int64_t> strides, bool gated)
      : strides_(std::move(strides)) {
    cls = register_module("cls", torch::nn::Conv2d(torch::nn::Conv2dOptions(channels, 9, 3).padding(1)));
    reg = register_module("reg", torch::nn::Conv2d(torch::nn::Conv2dOptions(channels, 36, 3).padding(1)));
    base_sizes = register_buffer("base_sizes", torch::tensor({32.f, 64.f, 128.f}));
    anchors_ = torch::rand({9, 4}) * 64;
    if (gated) gate_ = torch::nn::Linear(channels, channels);
  }
  std::pair<torch::Tensor, torch::Tensor> forward(torch::Tensor feats) {
    if (gate_) feats = feats * torch::sigmoid(gate_->forward(feats.mean({2, 3}))).unsqueeze(-1).unsqueeze(-1);
    last_feats_ = feats.detach();  // a cache of the last input, recomputed on every call
    auto deltas = reg->forward(feats).view({feats.size(0), 9, 4, -1});
    auto boxes = deltas * anchors_.view({1, 9, 4, 1}) * base_sizes.mean();
    return {cls->forward(feats), boxes};
  }
  torch::nn::Conv2d cls{nullptr}, reg{nullptr};
  torch::Tensor base_sizes;
  torch::Tensor anchors_;  // BUG(device-unregistered-member): assigned in the constructor but never register_buffer'ed: head->to(device) leaves it on the CPU, and forward() multiplies device deltas by it
  torch::nn::Linear gate_{nullptr};  // BUG(device-unregistered-member): built without register_module: to() does not move it, parameters() does not list it (never trained), forward() runs it on device features
  std::vector<int64_t> strides_;
  torch::Tensor last_feats_;
};
TORCH_MODULE(AnchorHead);

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  AnchorHead head(128, std::vector<int64_t>{8, 16, 32}, /*gated=*/true);
  head->to(device);
  torch::optim::SGD opt(head->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  const auto opts = torch::TensorOptions().device(device);
  for (int step = 0; step < 1000; ++step) {
    auto feats = torch::randn({4, 128, 32, 32}, opts);
    auto [logits, boxes] = head->forward(feats);
    auto loss = torch::binary_cross_entropy_with_logits(logits, torch::zeros_like(logits)) + boxes.abs().mean() * 1e-3;
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 100 == 0) std::printf("step %d loss %.4f\n", step, loss.item<float>());
  }
}
