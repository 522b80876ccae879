// Human pose estimation: Gaussian heatmap targets rendered on the fly from keypoint coordinates.
#include <torch/torch.h>

#include <iostream>

struct HourglassLiteImpl : torch::nn::Module {
  explicit HourglassLiteImpl(int64_t joints) {
    down = register_module("down", torch::nn::Sequential(
                                       torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 64, 3).stride(2).padding(1)), torch::nn::BatchNorm2d(64), torch::nn::ReLU(),
                                       torch::nn::Conv2d(torch::nn::Conv2dOptions(64, 128, 3).stride(2).padding(1)), torch::nn::BatchNorm2d(128), torch::nn::ReLU()));
    head = register_module("head", torch::nn::Conv2d(torch::nn::Conv2dOptions(128, joints, 1)));
  }
  torch::Tensor forward(const torch::Tensor& x) { return head(down->forward(x)); }
  torch::nn::Sequential down{nullptr};
  torch::nn::Conv2d head{nullptr};
};
TORCH_MODULE(HourglassLite);

// keypoints: [B, K, 3] (x, y, visibility) in heatmap pixels; returns [B, K, H, W] targets and [B, K] weights.
std::pair<torch::Tensor, torch::Tensor> render_heatmaps(const torch::Tensor& keypoints, int64_t H, int64_t W, double sigma) {
  auto xs = torch::arange(W, torch::kFloat).view({1, 1, 1, W}), ys = torch::arange(H, torch::kFloat).view({1, 1, H, 1});  // BUG(device-factory-without-device): CPU coordinate grids; subtracted from the device keypoints below
  auto kx = keypoints.select(2, 0).unsqueeze(-1).unsqueeze(-1);
  auto ky = keypoints.select(2, 1).unsqueeze(-1).unsqueeze(-1);
  auto maps = torch::exp(-((xs - kx).pow(2) + (ys - ky).pow(2)) / (2 * sigma * sigma));
  auto weight = keypoints.select(2, 2).gt(0).to(torch::kFloat);
  return {maps * weight.unsqueeze(-1).unsqueeze(-1), weight};
}

// Soft-argmax decoding for evaluation; works on any device.
torch::Tensor soft_argmax(const torch::Tensor& heatmaps) {
  const int64_t H = heatmaps.size(2), W = heatmaps.size(3);
  auto p = torch::softmax(heatmaps.flatten(2) * 20.0, -1).view_as(heatmaps);
  auto xs = torch::arange(W, heatmaps.options());
  auto ys = torch::arange(H, heatmaps.options());
  return torch::stack({(p.sum(2) * xs).sum(-1), (p.sum(3) * ys).sum(-1)}, -1);
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t joints = 17;
  HourglassLite net(joints);
  net->to(device);
  torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(1e-3));
  for (int step = 0; step < 1000; ++step) {
    auto images = torch::rand({16, 3, 256, 256});
    auto kpts = torch::cat({torch::rand({16, joints, 2}) * 64, torch::randint(0, 2, {16, joints, 1}).to(torch::kFloat)}, 2);
    auto x = images.to(device);
    auto k = kpts.to(device);
    auto pred = net->forward(x);
    auto target = render_heatmaps(k, pred.size(2), pred.size(3), 2.0);
    auto loss = (torch::mse_loss(pred, target.first, torch::Reduction::None).mean({2, 3}) * target.second).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 100 == 0) {
      auto err = (soft_argmax(pred.detach()) - k.slice(2, 0, 2)).norm(2, -1).mean();
      std::cout << step << " loss " << loss.item<float>() << " px err " << err.item<float>() << "\n";
    }
  }
}
