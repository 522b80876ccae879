// Anchor-free (centre-ness style) detector head trained on synthetic boxes: per-pixel
// classification with focal loss plus box regression on the positive locations.
#include <torch/torch.h>

#include <cstdio>

struct DetectorImpl : torch::nn::Module {
  explicit DetectorImpl(int64_t classes) : classes_(classes) {
    trunk = register_module("trunk", torch::nn::Sequential(
        torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 64, 3).stride(2).padding(1)), torch::nn::ReLU(),
        torch::nn::Conv2d(torch::nn::Conv2dOptions(64, 128, 3).stride(2).padding(1)), torch::nn::ReLU(),
        torch::nn::Conv2d(torch::nn::Conv2dOptions(128, 128, 3).stride(2).padding(1)), torch::nn::ReLU()));
    cls = register_module("cls", torch::nn::Conv2d(torch::nn::Conv2dOptions(128, classes, 3).padding(1)));
    box = register_module("box", torch::nn::Conv2d(torch::nn::Conv2dOptions(128, 4, 3).padding(1)));
  }
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& images) {
    auto f = trunk->forward(images);
    return {cls->forward(f), torch::relu(box->forward(f))};
  }
  int64_t classes_;
  torch::nn::Sequential trunk{nullptr};
  torch::nn::Conv2d cls{nullptr}, box{nullptr};
};
TORCH_MODULE(Detector);

static torch::Tensor focal_loss(const torch::Tensor& logits, const torch::Tensor& targets, double alpha, double gamma) {
  auto p = torch::sigmoid(logits);
  auto ce = torch::binary_cross_entropy_with_logits(logits, targets, {}, {}, at::Reduction::None);
  auto p_t = p * targets + (1 - p) * (1 - targets);
  auto a_t = alpha * targets + (1 - alpha) * (1 - targets);
  return (a_t * (1 - p_t).pow(gamma) * ce).sum();
}

int main() {
  const auto device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  const int64_t classes = 20, grid = 32;
  Detector det(classes);
  det->to(device);
  torch::optim::AdamW opt(det->parameters(), torch::optim::AdamWOptions(1e-4).weight_decay(0.05));
  const auto opts = torch::TensorOptions().device(device);

  for (int step = 0; step < 20000; ++step) {
    auto images = torch::rand({16, 3, 256, 256}, opts);
    // Synthetic dense targets: a few positive cells per image.
    auto positive = torch::rand({16, grid, grid}, opts) < 0.01;
    auto labels = torch::randint(0, classes, {16, grid, grid}, opts.dtype(torch::kLong));
    auto cls_target = torch::one_hot(labels, classes).permute({0, 3, 1, 2}).to(torch::kFloat) *
                      positive.unsqueeze(1).to(torch::kFloat);
    auto box_target = torch::rand({16, 4, grid, grid}, opts) * 64;

    if (!positive.any().item<bool>()) continue;  // the iteration branches on it: a necessary sync (issue 24), reported with device-sync-in-loop.ReportNecessary
    auto [cls_logits, box_pred] = det->forward(images);
    auto num_pos = positive.sum().clamp_min(1).to(torch::kFloat);
    auto cls_loss = focal_loss(cls_logits, cls_target, 0.25, 2.0) / num_pos;
    auto pos_w = positive.unsqueeze(1).to(torch::kFloat);  // a weight, not a masked_select: no data-dependent shape
    auto box_loss = (torch::smooth_l1_loss(box_pred, box_target, at::Reduction::None) * pos_w).sum() / (4 * num_pos);
    auto loss = cls_loss + box_loss;

    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 200 == 0) std::printf("step %d  cls %.4f  box %.4f\n", step, cls_loss.item<float>(), box_loss.item<float>());
  }
  torch::save(det, "anchor_free_detector.pt");
}
