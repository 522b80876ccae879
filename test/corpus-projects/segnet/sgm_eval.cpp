// segnet: evaluation entry point: pixel accuracy and mean IoU on held-out images.
#include <iostream>

#include "sgm_data.h"
#include "sgm_losses.h"
#include "sgm_model.h"

int main(int argc, char** argv) {
  const std::string ckpt = argc > 1 ? argv[1] : "/tmp/torch-tidy-corpus-projects/sgm_segnet.pt";
  constexpr int64_t kClasses = 3;
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  sgm::SegNet model(kClasses);
  torch::load(model, ckpt, device);
  model->eval();
  torch::NoGradGuard no_grad;
  auto mean = sgm::dataset_mean().to(device);

  auto confusion = torch::zeros({kClasses, kClasses}, torch::kLong);
  int64_t correct = 0, total = 0;
  for (int i = 0; i < 3; ++i) {
    auto [images, masks] = sgm::synth_batch(4, 16, kClasses);
    auto logits = model->forward(images.to(device) - mean);
    correct += logits.argmax(1).eq(masks).sum().item<int64_t>();  // BUG(device-unmoved-target): the images are moved, the masks returned with them by synth_batch (sgm_data.cpp) are not
    total += masks.numel();
    confusion += sgm::confusion_matrix(logits.argmax(1).cpu(), masks, kClasses);
  }
  std::cout << "pixel accuracy " << static_cast<double>(correct) / total << " mIoU "
            << sgm::mean_iou(confusion) << "\n";
  return 0;
}
