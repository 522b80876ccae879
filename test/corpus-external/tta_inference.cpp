// Test-time augmentation for a segmentation model: flips and scales, logits averaged at full size.
#include <torch/torch.h>

#include <iostream>
#include <vector>

namespace F = torch::nn::functional;

class TTAPredictor {
 public:
  TTAPredictor(torch::nn::Sequential model, torch::Device device) : model_(std::move(model)), device_(device) {
    model_->to(device_);
    model_->eval();
  }

  // Accepts a host image and prepares it for the model.
  void prepare(torch::Tensor& image) const {
    image = image.to(torch::kFloat).div_(255);
    image.to(device_);  // BUG(device-discarded-to): the caller's tensor is not moved; the assignment above was the pattern to follow
  }

  torch::Tensor predict(torch::Tensor image, const std::vector<double>& scales) {
    torch::NoGradGuard no_grad;
    prepare(image);
    const int64_t H = image.size(2), W = image.size(3);
    torch::Tensor acc;
    for (double s : scales) {
      auto resized = F::interpolate(image, F::InterpolateFuncOptions()
                                               .size(std::vector<int64_t>{int64_t(H * s), int64_t(W * s)})
                                               .mode(torch::kBilinear)
                                               .align_corners(false));
      for (bool flip : {false, true}) {
        auto in = flip ? resized.flip({3}) : resized;
        auto out = model_->forward(in);
        if (flip) out = out.flip({3});
        out = F::interpolate(out, F::InterpolateFuncOptions().size(std::vector<int64_t>{H, W}).mode(torch::kBilinear).align_corners(false));
        acc = acc.defined() ? acc + out : out;
      }
    }
    return acc / static_cast<double>(2 * scales.size());
  }

 private:
  torch::nn::Sequential model_;
  torch::Device device_;
};

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential net(torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).padding(1)), torch::nn::ReLU(),
                            torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 5, 1)));
  torch::load(net, "seg.pt", device);
  TTAPredictor predictor(net, device);
  auto image = torch::randint(0, 256, {1, 3, 256, 256}, torch::kByte);
  auto logits = predictor.predict(image, {0.75, 1.0, 1.25});
  auto labels = logits.argmax(1).cpu();
  std::cout << "class histogram " << torch::bincount(labels.flatten(), {}, 5) << "\n";
  if (device.is_cuda()) {
    auto check = torch::ones({1});
    check.cuda();  // BUG(device-discarded-to): a device round-trip check that moves nothing
    std::cout << "check on " << check.device() << "\n";
  }
}
