// Semantic-segmentation evaluation with a small running-IoU meter (a plain struct of
// tensors) and a pixel-accuracy meter that allocates its state lazily.
#include <torch/torch.h>

#include <cstdio>

constexpr int64_t kNumClasses = 6;

struct IoUMeter {
  torch::Tensor intersection = torch::zeros({kNumClasses});  // BUG(device-factory-without-device): CPU state; update() adds the device counts of evaluate() to it
  torch::Tensor union_ = torch::zeros({kNumClasses});         // BUG(device-factory-without-device): same for the union counts

  void update(const torch::Tensor& pred, const torch::Tensor& gt) {
    auto p = torch::one_hot(pred.flatten(), kNumClasses).to(torch::kFloat);
    auto g = torch::one_hot(gt.flatten(), kNumClasses).to(torch::kFloat);
    intersection += (p * g).sum(0);
    union_ += (p + g).clamp_max(1).sum(0);
  }
  torch::Tensor iou() const { return intersection / union_.clamp_min(1); }
};

struct PixelAccuracy {  // state created on first use, on the device of the inputs
  torch::Tensor correct, total;
  void update(const torch::Tensor& pred, const torch::Tensor& gt) {
    if (!correct.defined()) {
      correct = torch::zeros({}, pred.options().dtype(torch::kLong));
      total = torch::zeros_like(correct);
    }
    correct += pred.eq(gt).sum();
    total += gt.numel();
  }
  double value() const { return correct.item<double>() / total.item<double>(); }
};

static torch::nn::Sequential make_segmenter() {
  return torch::nn::Sequential(
      torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 32, 3).padding(1)), torch::nn::ReLU(),
      torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 32, 3).padding(1)), torch::nn::ReLU(),
      torch::nn::Conv2d(torch::nn::Conv2dOptions(32, kNumClasses, 1)));
}

static void evaluate(torch::nn::Sequential& net, torch::Device device, IoUMeter& iou, PixelAccuracy& acc) {
  torch::NoGradGuard no_grad;
  net->eval();
  for (int b = 0; b < 50; ++b) {
    auto image = torch::rand({4, 3, 128, 128}, torch::TensorOptions().device(device));
    auto gt = torch::randint(0, kNumClasses, {4, 128, 128}, torch::TensorOptions().dtype(torch::kLong).device(device));
    auto pred = net->forward(image).argmax(1);
    iou.update(pred, gt);
    acc.update(pred, gt);
  }
}

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto net = make_segmenter();
  torch::load(net, "segmenter.pt", device);
  net->to(device);
  IoUMeter iou;
  PixelAccuracy acc;
  evaluate(net, device, iou, acc);
  auto per_class = iou.iou();
  std::printf("mIoU %.4f  pixel acc %.4f\n", per_class.mean().item<float>(), acc.value());
}
