// U-Net style segmentation with deep supervision: per-scale losses summed into an accumulator.
#include <torch/torch.h>

#include <vector>

struct SegNetImpl : torch::nn::Module {
  SegNetImpl(int64_t in_ch, int64_t classes) {
    enc1 = register_module("enc1", torch::nn::Conv2d(torch::nn::Conv2dOptions(in_ch, 16, 3).padding(1)));
    enc2 = register_module("enc2", torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 32, 3).padding(1)));
    head1 = register_module("head1", torch::nn::Conv2d(torch::nn::Conv2dOptions(16, classes, 1)));
    head2 = register_module("head2", torch::nn::Conv2d(torch::nn::Conv2dOptions(32, classes, 1)));
  }

  std::vector<torch::Tensor> forward(torch::Tensor x) {
    auto f1 = torch::relu(enc1->forward(x));
    auto f2 = torch::relu(enc2->forward(torch::max_pool2d(f1, 2)));
    return {head1->forward(f1), head2->forward(f2)};
  }

  torch::nn::Conv2d enc1{nullptr}, enc2{nullptr}, head1{nullptr}, head2{nullptr};
};
TORCH_MODULE(SegNet);

torch::Tensor resize_like(const torch::Tensor& logits, const torch::Tensor& mask) {
  namespace F = torch::nn::functional;
  return F::interpolate(logits, F::InterpolateFuncOptions()
                                    .size(std::vector<int64_t>{mask.size(1), mask.size(2)})
                                    .mode(torch::kBilinear)
                                    .align_corners(false));
}

// Correct: the accumulator follows the outputs' device.
torch::Tensor multiscale_loss_fixed(const std::vector<torch::Tensor>& outs, const torch::Tensor& mask) {
  auto total = torch::zeros({1}, outs.front().options());
  for (const auto& o : outs) {
    total += torch::nll_loss2d(torch::log_softmax(resize_like(o, mask), 1), mask);
  }
  return total / static_cast<double>(outs.size());
}

// Correct: 0-dim CPU start value, out-of-place sum (the result moves to the losses' device).
torch::Tensor multiscale_loss_sum(const std::vector<torch::Tensor>& outs, const torch::Tensor& mask) {
  auto total = torch::zeros({});
  for (const auto& o : outs) {
    total = total + torch::nll_loss2d(torch::log_softmax(resize_like(o, mask), 1), mask);
  }
  return total;
}

int main() {
  auto device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  SegNet net(3, 4);
  net->to(device);
  torch::optim::Adam opt(net->parameters(), 1e-3);
  for (int step = 0; step < 10; ++step) {
    auto images = torch::randn({2, 3, 64, 64}).to(device);
    auto masks = torch::randint(0, 4, {2, 64, 64}, torch::kLong).to(device);
    auto outs = net->forward(images);
    auto total = torch::zeros({1});  // BUG(device-factory-without-device): 1-dim CPU accumulator; `total +=` a loss on the GPU throws
    for (const auto& o : outs) {
      total += torch::nll_loss2d(torch::log_softmax(resize_like(o, masks), 1), masks);
    }
    auto loss = total + multiscale_loss_fixed(outs, masks) + multiscale_loss_sum(outs, masks);
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
}
