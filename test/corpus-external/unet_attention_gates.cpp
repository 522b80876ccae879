// Attention U-Net (two levels) for binary lesion segmentation with a prior on the background logit.
#include <torch/torch.h>

#include <iostream>
#include <memory>

constexpr int64_t kClasses = 2;

torch::nn::Sequential double_conv(int64_t in, int64_t out) {
  return torch::nn::Sequential(torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 3).padding(1)), torch::nn::BatchNorm2d(out),
                               torch::nn::ReLU(), torch::nn::Conv2d(torch::nn::Conv2dOptions(out, out, 3).padding(1)),
                               torch::nn::BatchNorm2d(out), torch::nn::ReLU());
}

struct AttentionGateImpl : torch::nn::Module {
  AttentionGateImpl(int64_t g_ch, int64_t x_ch, int64_t inter) {
    wg = register_module("wg", torch::nn::Conv2d(torch::nn::Conv2dOptions(g_ch, inter, 1)));
    wx = register_module("wx", torch::nn::Conv2d(torch::nn::Conv2dOptions(x_ch, inter, 1)));
    psi = register_module("psi", torch::nn::Conv2d(torch::nn::Conv2dOptions(inter, 1, 1)));
  }
  torch::Tensor forward(const torch::Tensor& g, const torch::Tensor& x) {
    auto a = torch::sigmoid(psi(torch::relu(wg(g) + wx(x))));
    return x * a;
  }
  torch::nn::Conv2d wg{nullptr}, wx{nullptr}, psi{nullptr};
};

struct AttUNetImpl : torch::nn::Module {
  AttUNetImpl() {
    enc1 = register_module("enc1", double_conv(1, 32));
    enc2 = register_module("enc2", double_conv(32, 64));
    up = register_module("up", torch::nn::ConvTranspose2d(torch::nn::ConvTranspose2dOptions(64, 32, 2).stride(2)));
    gate = std::make_shared<AttentionGateImpl>(32, 32, 16);
    dec = register_module("dec", double_conv(64, 32));
    out = register_module("out", torch::nn::Conv2d(torch::nn::Conv2dOptions(32, kClasses, 1)));
  }
  torch::Tensor forward(const torch::Tensor& x) {
    auto e1 = enc1->forward(x);
    auto e2 = enc2->forward(torch::max_pool2d(e1, 2));
    auto u = up(e2);
    auto skip = gate->forward(u, e1);
    return out(dec->forward(torch::cat({u, skip}, 1))) + logit_prior;
  }
  torch::nn::Sequential enc1{nullptr}, enc2{nullptr}, dec{nullptr};
  torch::nn::ConvTranspose2d up{nullptr};
  std::shared_ptr<AttentionGateImpl> gate;  // BUG(device-unregistered-member): never passed to register_module: its convolutions stay on the CPU and are never trained
  torch::nn::Conv2d out{nullptr};
  torch::Tensor logit_prior = torch::tensor({0.0f, -2.0f}).view({1, kClasses, 1, 1});  // BUG(device-unregistered-member): a plain member, not a buffer; forward() adds it to device logits
};
TORCH_MODULE(AttUNet);

torch::Tensor dice_coefficient(const torch::Tensor& logits, const torch::Tensor& mask) {
  auto p = torch::softmax(logits, 1).select(1, 1);
  auto m = mask.to(p.scalar_type());
  return (2 * (p * m).sum() + 1) / (p.sum() + m.sum() + 1);
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  AttUNet net;
  net->to(device);
  torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(1e-4));
  for (int step = 0; step < 1000; ++step) {
    auto img = torch::randn({4, 1, 128, 128}, torch::device(device));
    auto mask = (img > 1.0).squeeze(1).to(torch::kLong);
    auto logits = net->forward(img);
    auto loss = torch::cross_entropy_loss(logits, mask) + (1 - dice_coefficient(logits, mask));
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 100 == 0) std::cout << step << " " << loss.item<float>() << "\n";
  }
}
