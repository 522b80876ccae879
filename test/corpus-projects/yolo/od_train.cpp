// yolo: training entry point (SGD; box, objectness and class losses).
#include <iostream>

#include "od_data.h"
#include "od_model.h"

namespace F = torch::nn::functional;

int main(int argc, char** argv) {
  const std::string ckpt = argc > 1 ? argv[1] : "/tmp/torch-tidy-corpus-projects/od_tinyyolo.pt";
  constexpr int64_t kClasses = 3;
  torch::manual_seed(0);
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  od::TinyYolo model(kClasses, 4.0);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(1e-2).momentum(0.9));

  for (int step = 0; step < 4; ++step) {
    auto batch = od::synth_batch(4, 16, kClasses);
    od::to_device(batch, device);
    opt.zero_grad();
    auto [boxes, objectness, class_logits] = model->decode(model->forward(batch.images));
    auto box_loss = F::smooth_l1_loss(boxes, batch.boxes);
    auto obj_loss = F::binary_cross_entropy_with_logits(objectness, torch::ones_like(objectness));
    auto cls_loss = F::cross_entropy(class_logits.reshape({-1, kClasses}), batch.labels.reshape({-1}));  // BUG(device-unmoved-target): od::to_device (od_data.cpp) moves the images and boxes of the batch, not its labels
    auto loss = 0.05 * box_loss + obj_loss + cls_loss;
    loss.backward();
    opt.step();
    std::cout << "step " << step << " loss " << loss.item<float>() << "\n";
  }
  torch::save(model, ckpt);
  return 0;
}
