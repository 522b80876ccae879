// Video frame interpolation pieces: warping a frame by a predicted optical flow field.
#include <torch/torch.h>

#include <iostream>

namespace F = torch::nn::functional;

// Warps by a flow predicted from both frames; the sampling grid depends on the input size.
struct FlowWarperImpl : torch::nn::Module {
  FlowWarperImpl() {
    flow_net = register_module("flow_net", torch::nn::Sequential(
                                               torch::nn::Conv2d(torch::nn::Conv2dOptions(6, 32, 3).padding(1)), torch::nn::ReLU(),
                                               torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 2, 3).padding(1))));
  }
  torch::Tensor forward(const torch::Tensor& frame0, const torch::Tensor& frame1) {
    const int64_t B = frame0.size(0), H = frame0.size(2), W = frame0.size(3);
    auto flow = flow_net->forward(torch::cat({frame0, frame1}, 1));
    auto gy = torch::linspace(-1.0, 1.0, H).view({1, H, 1}).expand({B, H, W});  // BUG(device-factory-without-device): CPU base grid; added to the device flow below
    auto gx = torch::linspace(-1.0, 1.0, W, flow.options()).view({1, 1, W}).expand({B, H, W});
    auto fx = flow.select(1, 0) * (2.0 / (W - 1));
    auto fy = flow.select(1, 1) * (2.0 / (H - 1));
    auto grid = torch::stack({gx + fx, gy + fy}, -1);
    return F::grid_sample(frame0, grid, F::GridSampleFuncOptions().align_corners(true).padding_mode(torch::kBorder));
  }
  torch::nn::Sequential flow_net{nullptr};
};
TORCH_MODULE(FlowWarper);

// Fixed-resolution variant: the identity grid is a registered buffer and moves with the module.
struct FixedGridWarperImpl : torch::nn::Module {
  FixedGridWarperImpl(int64_t H, int64_t W) {
    auto ys = torch::linspace(-1.0, 1.0, H).view({H, 1}).expand({H, W});
    auto xs = torch::linspace(-1.0, 1.0, W).view({1, W}).expand({H, W});
    base = register_buffer("base", torch::stack({xs, ys}, -1).unsqueeze(0));
  }
  torch::Tensor forward(const torch::Tensor& frame, const torch::Tensor& flow_normalised) {
    auto grid = base.expand({frame.size(0), -1, -1, -1}) + flow_normalised.permute({0, 2, 3, 1});
    return F::grid_sample(frame, grid, F::GridSampleFuncOptions().align_corners(true));
  }
  torch::Tensor base;
};
TORCH_MODULE(FixedGridWarper);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  FlowWarper warper;
  FixedGridWarper fixed(128, 128);
  warper->to(device);
  fixed->to(device);
  torch::optim::Adam opt(warper->parameters(), torch::optim::AdamOptions(1e-4));
  for (int step = 0; step < 300; ++step) {
    auto f0 = torch::rand({4, 3, 128, 128}, torch::device(device));
    auto f1 = torch::roll(f0, {2}, {3});
    auto warped = warper->forward(f0, f1);
    auto loss = torch::l1_loss(warped, f1);
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 100 == 0) {
      torch::NoGradGuard no_grad;
      auto shift = torch::zeros({4, 2, 128, 128}, f0.options());
      shift.select(1, 0).fill_(2.0 * 2 / 127);
      std::cout << step << " " << loss.item<float>() << " fixed " << torch::l1_loss(fixed->forward(f0, shift), f1).item<float>() << "\n";
    }
  }
}
