// Segmentation evaluation: IoU from device predictions, with a host-side histogram.
#include <torch/torch.h>

#include <iostream>
#include <vector>

struct SegHeadImpl : torch::nn::Module {
  explicit SegHeadImpl(int64_t classes)
      : conv(register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, classes, 3).padding(1)))) {}
  torch::Tensor forward(const torch::Tensor& x) { return conv->forward(x); }
  torch::nn::Conv2d conv;
};
TORCH_MODULE(SegHead);

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  const int64_t C = 4;
  SegHead model(C);
  model->to(device);
  model->eval();
  torch::NoGradGuard no_grad;

  auto dataset = torch::data::datasets::TensorDataset(torch::rand({16, 3, 32, 32}));
  auto loader = torch::data::make_data_loader(std::move(dataset), 4);
  auto masks = torch::randint(0, C, {16, 32, 32}, torch::kLong);
  auto intersection = torch::zeros({C}, torch::TensorOptions().dtype(torch::kLong).device(device));
  auto union_ = torch::zeros({C}, torch::TensorOptions().dtype(torch::kLong).device(device));
  std::vector<int64_t> hist(C, 0);
  int64_t offset = 0;

  for (auto& batch : *loader) {
    auto images = torch::stack({batch[0].data, batch[1].data, batch[2].data, batch[3].data}).to(device);
    auto target = masks.narrow(0, offset, 4).to(device);
    auto pred = model->forward(images).argmax(1);
    for (int64_t c = 0; c < C; ++c) {
      auto p = pred == c, t = target == c;
      intersection[c] += (p & t).sum();
      union_[c] += (p | t).sum();
    }
    const int64_t* labels = pred.data_ptr<int64_t>();  // BUG(device-host-access): pred is on the device
    for (int64_t i = 0; i < pred.numel(); i += 97) hist[labels[i]]++;

    auto pred_host = pred.to(torch::kCPU);
    const int64_t* ok = pred_host.data_ptr<int64_t>();  // bound CPU copy: fine
    hist[ok[0]]++;
    offset += 4;
  }
  auto iou = intersection.to(torch::kDouble) / union_.clamp_min(1).to(torch::kDouble);
  std::cout << "mIoU " << iou.mean().item<double>() << ' ' << hist[0] << '\n';
}
