// Binary/multi-class segmentation with a two-level encoder-decoder on one chosen GPU
// (`seg --gpu 1`); mean IoU on a held-out split after every epoch.
#include <torch/torch.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

constexpr int64_t kClasses = 4;

struct TinyUNetImpl : torch::nn::Module {
  static torch::nn::Sequential block(int64_t in, int64_t out) {
    return torch::nn::Sequential(torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 3).padding(1)),
                                 torch::nn::BatchNorm2d(out), torch::nn::ReLU(),
                                 torch::nn::Conv2d(torch::nn::Conv2dOptions(out, out, 3).padding(1)),
                                 torch::nn::BatchNorm2d(out), torch::nn::ReLU());
  }
  TinyUNetImpl() {
    enc1 = register_module("enc1", block(3, 32));
    enc2 = register_module("enc2", block(32, 64));
    up = register_module("up", torch::nn::ConvTranspose2d(torch::nn::ConvTranspose2dOptions(64, 32, 2).stride(2)));
    dec = register_module("dec", block(64, 32));
    head = register_module("head", torch::nn::Conv2d(torch::nn::Conv2dOptions(32, kClasses, 1)));
  }
  torch::Tensor forward(const torch::Tensor& x) {
    auto s1 = enc1->forward(x);
    auto s2 = enc2->forward(torch::max_pool2d(s1, 2));
    return head->forward(dec->forward(torch::cat({up->forward(s2), s1}, 1)));
  }
  torch::nn::Sequential enc1{nullptr}, enc2{nullptr}, dec{nullptr};
  torch::nn::ConvTranspose2d up{nullptr};
  torch::nn::Conv2d head{nullptr};
};
TORCH_MODULE(TinyUNet);

struct Sample {
  torch::Tensor image, mask;  // CPU: [B,3,H,W] float, [B,H,W] long
};

static std::vector<Sample> fake_split(int n_batches) {
  std::vector<Sample> out;
  for (int i = 0; i < n_batches; ++i)
    out.push_back({torch::randn({8, 3, 96, 96}), torch::randint(0, kClasses, {8, 96, 96}, torch::kLong)});
  return out;
}

static double validate(TinyUNet& net, const std::vector<Sample>& split, torch::Device device) {
  auto conf = torch::zeros({kClasses * kClasses}, torch::TensorOptions().dtype(torch::kLong).device(device));
  for (const auto& s : split) {
    auto logits = net->forward(s.image.to(device));  // BUG(training-inference-without-no-grad): main() switched the net to eval() and calls this without a NoGradGuard: every validation batch builds a full autograd graph of the U-Net
    auto idx = (s.mask.to(device) * kClasses + logits.argmax(1)).flatten();
    conf.scatter_add_(0, idx, torch::ones_like(idx));
  }
  auto m = conf.view({kClasses, kClasses}).to(torch::kDouble);
  auto iou = m.diag() / (m.sum(0) + m.sum(1) - m.diag()).clamp_min(1);
  return iou.mean().item<double>();
}

int main(int argc, char** argv) {
  int gpu = 0;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--gpu") gpu = std::atoi(argv[i + 1]);
  const torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(gpu))
                                                           : torch::Device(torch::kCPU);
  if (device.str() == "cuda") at::globalContext().setBenchmarkCuDNN(true);  // BUG(device-string-compare): an indexed device prints as "cuda:0"/"cuda:1", never "cuda": cuDNN autotuning is never switched on

  auto train = fake_split(50), val = fake_split(10);
  TinyUNet net;
  net->to(device);
  torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(1e-3));
  auto class_w = torch::tensor({0.5f, 1.0f, 1.0f, 2.0f}, torch::TensorOptions().device(device));

  for (int epoch = 0; epoch < 20; ++epoch) {
    net->train();
    for (const auto& s : train) {
      auto logits = net->forward(s.image.to(device));
      auto loss = torch::nn::functional::cross_entropy(
          logits, s.mask.to(device), torch::nn::functional::CrossEntropyFuncOptions().weight(class_w));
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
    net->eval();
    const double miou = validate(net, val, device);
    std::printf("epoch %d  val mIoU %.3f\n", epoch, miou);
  }
  torch::save(net, "tiny_unet.pt");
}
