// A grab-bag of classification/segmentation losses used by the training script below.
#include <torch/torch.h>

#include <iostream>
#include <vector>

namespace losses {

// Binary focal loss with per-class alpha; targets are 0/1 int64 labels.
torch::Tensor focal(const torch::Tensor& logits, const torch::Tensor& targets, double gamma = 2.0) {
  auto alpha = torch::tensor({0.25f, 0.75f});  // BUG(device-factory-without-device): CPU class weights gathered with the device targets below
  auto at = alpha.gather(0, targets);
  auto p = torch::sigmoid(logits);
  auto pt = torch::where(targets.to(torch::kBool), p, 1 - p);
  auto bce = torch::binary_cross_entropy_with_logits(logits, targets.to(logits.scalar_type()), {}, {}, torch::Reduction::None);
  return (at * (1 - pt).pow(gamma) * bce).mean();
}

// Cross entropy against smoothed one-hot targets.
torch::Tensor label_smoothing_ce(const torch::Tensor& logits, const torch::Tensor& targets, double eps) {
  const int64_t B = logits.size(0), C = logits.size(1);
  auto dist = torch::full({B, C}, eps / (C - 1));  // BUG(device-factory-without-device): CPU target distribution; scatter_ with the device targets, then multiplied with device log-probs
  dist.scatter_(1, targets.unsqueeze(1), 1.0 - eps);
  return -(dist * torch::log_softmax(logits, 1)).sum(1).mean();
}

// Soft Dice over [B, C, H, W] probabilities and one-hot masks; the smoothing term is a 0-dim tensor.
torch::Tensor dice(const torch::Tensor& probs, const torch::Tensor& onehot) {
  auto smooth = torch::tensor(1.0f);
  auto inter = (probs * onehot).sum({2, 3});
  auto denom = probs.sum({2, 3}) + onehot.sum({2, 3});
  return (1 - (2 * inter + smooth) / (denom + smooth)).mean();
}

// Online hard example mining over per-sample losses; used on host copies only.
torch::Tensor ohem_mask(const torch::Tensor& per_sample, double keep_ratio) {
  const int64_t k = std::max<int64_t>(1, static_cast<int64_t>(per_sample.size(0) * keep_ratio));
  auto mask = torch::zeros({per_sample.size(0)}, torch::kBool);
  mask.index_fill_(0, std::get<1>(per_sample.topk(k)), true);
  return mask;
}

}  // namespace losses

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto cls_head = torch::nn::Linear(64, 5);
  auto bin_head = torch::nn::Linear(64, 1);
  auto seg_head = torch::nn::Conv2d(torch::nn::Conv2dOptions(8, 3, 1));
  cls_head->to(device);
  bin_head->to(device);
  seg_head->to(device);
  std::vector<torch::Tensor> params = cls_head->parameters();
  for (auto& p : bin_head->parameters()) params.push_back(p);
  for (auto& p : seg_head->parameters()) params.push_back(p);
  torch::optim::Adam opt(params, torch::optim::AdamOptions(1e-3));

  for (int step = 0; step < 500; ++step) {
    auto feats = torch::randn({32, 64}, torch::device(device));
    auto y_cls = torch::randint(0, 5, {32}, torch::TensorOptions().dtype(torch::kLong).device(device));
    auto y_bin = torch::randint(0, 2, {32}, torch::TensorOptions().dtype(torch::kLong).device(device));
    auto maps = torch::randn({4, 8, 32, 32}, torch::device(device));
    auto y_seg = torch::randint(0, 3, {4, 32, 32}, torch::TensorOptions().dtype(torch::kLong).device(device));

    auto l_cls = losses::label_smoothing_ce(cls_head(feats), y_cls, 0.1);
    auto l_bin = losses::focal(bin_head(feats).squeeze(1), y_bin);
    auto onehot = torch::one_hot(y_seg, 3).permute({0, 3, 1, 2}).to(torch::kFloat);
    auto l_seg = losses::dice(torch::softmax(seg_head(maps), 1), onehot);
    auto loss = l_cls + l_bin + l_seg;
    opt.zero_grad();
    loss.backward();
    opt.step();

    auto per_sample = torch::cross_entropy_loss(cls_head(feats), y_cls, {}, torch::Reduction::None, -100, 0.0).detach().cpu();
    auto hard = losses::ohem_mask(per_sample, 0.25);
    if (step % 100 == 0) std::cout << step << " loss " << loss.item<float>() << " hard " << hard.sum().item<int64_t>() << "\n";
  }
}
