// Keypoint heads with CoordConv: each head concatenates normalised x/y coordinate
// channels to its input. Several heads (one per keypoint group) are kept in a vector.
#include <torch/torch.h>

#include <cstdio>
#include <vector>

struct CoordHeadImpl : torch::nn::Module {
  CoordHeadImpl(int64_t in, int64_t out) {
    conv = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(in + 2, 64, 3).padding(1)));
    pred = register_module("pred", torch::nn::Conv2d(torch::nn::Conv2dOptions(64, out, 1)));
  }
  torch::Tensor forward(const torch::Tensor& feats) {
    const int64_t B = feats.size(0), H = feats.size(2), W = feats.size(3);
    auto ys = torch::linspace(-1.0, 1.0, H);  // BUG(device-factory-without-device): CPU coordinates; the heads are moved in main(), and torch::cat meets them with the device features
    auto xs = torch::linspace(-1.0, 1.0, W);  // BUG(device-factory-without-device): same for the x channel
    auto grid = torch::meshgrid({ys, xs}, "ij");
    auto coords = torch::stack({grid[1], grid[0]}).unsqueeze(0).expand({B, 2, H, W});
    return pred->forward(torch::relu(conv->forward(torch::cat({feats, coords}, 1))));
  }
  torch::nn::Conv2d conv{nullptr}, pred{nullptr};
};
TORCH_MODULE(CoordHead);

struct BackboneImpl : torch::nn::Module {
  BackboneImpl() {
    net = register_module("net", torch::nn::Sequential(
        torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 32, 3).stride(2).padding(1)), torch::nn::ReLU(),
        torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 64, 3).stride(2).padding(1)), torch::nn::ReLU()));
  }
  torch::Tensor forward(const torch::Tensor& x) { return net->forward(x); }
  torch::nn::Sequential net{nullptr};
};
TORCH_MODULE(Backbone);

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  Backbone backbone;
  backbone->to(device);
  const std::vector<int64_t> group_sizes{5, 6, 6};  // face, left arm/leg, right arm/leg
  std::vector<CoordHead> heads;
  for (int64_t g : group_sizes) heads.emplace_back(64, g);
  for (auto& h : heads) h->to(device);

  std::vector<torch::Tensor> params = backbone->parameters();
  for (auto& h : heads)
    for (auto& p : h->parameters()) params.push_back(p);
  torch::optim::Adam opt(params, torch::optim::AdamOptions(1e-3));
  const auto opts = torch::TensorOptions().device(device);

  for (int step = 0; step < 4000; ++step) {
    auto images = torch::rand({8, 3, 128, 128}, opts);
    auto feats = backbone->forward(images);
    auto loss = torch::zeros({}, opts);
    for (size_t g = 0; g < heads.size(); ++g) {
      auto heat = heads[g]->forward(feats);
      auto target = torch::rand_like(heat);
      loss = loss + torch::mse_loss(heat, target);
    }
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 200 == 0) std::printf("step %d loss %.5f\n", step, loss.item<float>());
  }
}
