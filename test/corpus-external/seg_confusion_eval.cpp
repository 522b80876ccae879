// Semantic segmentation evaluation: confusion matrix, per-class IoU, pixel accuracy, mask dumps.
#include <torch/torch.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

struct TinySegNetImpl : torch::nn::Module {
  explicit TinySegNetImpl(int64_t classes) {
    enc = register_module("enc", torch::nn::Sequential(
                                     torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 32, 3).padding(1)), torch::nn::ReLU(),
                                     torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 32, 3).padding(1)), torch::nn::ReLU()));
    cls = register_module("cls", torch::nn::Conv2d(torch::nn::Conv2dOptions(32, classes, 1)));
  }
  torch::Tensor forward(torch::Tensor x) { return cls(enc->forward(x)); }
  torch::nn::Sequential enc{nullptr};
  torch::nn::Conv2d cls{nullptr};
};
TORCH_MODULE(TinySegNet);

// Writes a label map as a binary PGM for inspection.
void save_pgm(const torch::Tensor& mask, const std::string& path) {
  const int64_t h = mask.size(0), w = mask.size(1);
  const uint8_t* px = mask.data_ptr<uint8_t>();  // BUG(device-host-access): evaluate() passes a mask computed on the device; the host reads device memory
  std::ofstream out(path, std::ios::binary);
  out << "P5\n" << w << " " << h << "\n255\n";
  out.write(reinterpret_cast<const char*>(px), h * w);
}

std::vector<double> iou_from_confusion(const torch::Tensor& confusion) {
  auto cm = confusion.to(torch::kCPU, torch::kDouble);
  auto tp = cm.diag();
  auto denom = cm.sum(0) + cm.sum(1) - tp;
  auto iou = tp / denom.clamp_min(1.0);
  auto acc = iou.accessor<double, 1>();
  std::vector<double> out;
  for (int64_t c = 0; c < acc.size(0); ++c) out.push_back(acc[c]);
  return out;
}

template <typename Loader>
void evaluate(TinySegNet& model, Loader& loader, int64_t classes, torch::Device device) {
  torch::NoGradGuard no_grad;
  model->eval();
  auto confusion = torch::zeros({classes * classes}, torch::kLong);  // BUG(device-factory-without-device): CPU output of += with the device bincount below
  int64_t correct = 0, total = 0, index = 0;
  for (auto& batch : loader) {
    auto images = batch.data.to(device);
    auto pred = model->forward(images).argmax(1);
    auto hits = pred.eq(batch.target).sum();  // BUG(device-unmoved-target): batch.target was never moved, pred is on device
    correct += hits.template item<int64_t>();
    total += pred.numel();
    auto target = batch.target.to(device);
    confusion += torch::bincount(target.flatten() * classes + pred.flatten(), {}, classes * classes);
    if (index++ < 4) save_pgm(pred[0].to(torch::kByte), "pred_" + std::to_string(index) + ".pgm");
  }
  auto ious = iou_from_confusion(confusion.view({classes, classes}));
  double miou = 0;
  for (double v : ious) miou += v / ious.size();
  std::printf("pixel acc %.4f  mIoU %.4f\n", double(correct) / std::max<int64_t>(total, 1), miou);
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t classes = 21;
  TinySegNet model(classes);
  torch::load(model, "segnet.pt", device);
  model->to(device);
  std::vector<torch::data::Example<>> batches;
  for (int i = 0; i < 8; ++i)
    batches.push_back({torch::rand({2, 3, 64, 64}), torch::randint(0, classes, {2, 64, 64}, torch::kLong)});
  evaluate(model, batches, classes, device);
}
