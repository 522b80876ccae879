// Trains RetinaLite on synthetic boxes; focal loss on anchors assigned by IoU, smooth-L1 on box deltas.
#include <fstream>
#include <iostream>
#include <vector>

#include "det_anchors.h"
#include "det_model.h"

torch::Tensor sigmoid_focal(const torch::Tensor& logits, const torch::Tensor& targets, double alpha = 0.25, double gamma = 2.0) {
  auto p = torch::sigmoid(logits);
  auto ce = torch::binary_cross_entropy_with_logits(logits, targets, {}, {}, torch::Reduction::None);
  auto pt = p * targets + (1 - p) * (1 - targets);
  auto a = alpha * targets + (1 - alpha) * (1 - targets);
  return (a * (1 - pt).pow(gamma) * ce).sum();
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t classes = 3, img = 256;
  const std::vector<double> sizes = {32, 64}, ratios = {0.5, 1.0, 2.0};
  RetinaLite model(classes, static_cast<int64_t>(sizes.size() * ratios.size()));
  model->to(device);
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9).weight_decay(1e-4));
  auto anchors = grid_anchors(img / model->stride(), img / model->stride(), model->stride(), sizes, ratios);
  std::ofstream val_out("val_detections.txt");

  for (int step = 0; step < 3000; ++step) {
    auto images = (torch::rand({4, 3, img, img}) * 255).to(device);
    std::vector<torch::Tensor> gts;
    for (int i = 0; i < 4; ++i) {
      auto xy = torch::rand({5, 2}) * (img - 64);
      gts.push_back(torch::cat({xy, xy + 32 + torch::rand({5, 2}) * 32}, 1));
    }
    for (auto& g : gts) g = g.to(device);
    auto anchors_dev = anchors.to(device);  // BUG(device-loop-invariant-to): anchors never change; copied to the device every step
    auto out = model->forward(images);

    auto loss = torch::zeros({}, torch::device(device));
    for (int i = 0; i < 4; ++i) {
      auto a = assign(anchors_dev, gts[i], 0.5, 0.4);
      auto fg = a.labels.eq(1), valid = a.labels.ge(0);
      auto cls_t = torch::zeros_like(out.first[i]);
      cls_t.index_put_({fg, torch::zeros_like(a.matched.index({fg}))}, 1.0);
      const double num_fg = std::max<int64_t>(1, fg.sum().item<int64_t>());
      loss = loss + sigmoid_focal(out.first[i].index({valid}), cls_t.index({valid})) / num_fg;
      auto target_deltas = encode(anchors_dev.index({fg}), gts[i].index({a.matched.index({fg})}));
      loss = loss + torch::smooth_l1_loss(out.second[i].index({fg}), target_deltas, torch::Reduction::Sum) / num_fg;
    }
    opt.zero_grad();
    loss.backward();
    opt.step();

    if (step % 500 == 0) {
      torch::NoGradGuard no_grad;
      auto scores = torch::sigmoid(out.first[0]).max(1);
      auto boxes = decode(anchors_dev, out.second[0]);
      auto keep = std::get<0>(scores) > 0.3;
      auto dets = torch::cat({boxes.index({keep}), std::get<0>(scores).index({keep}).unsqueeze(1),
                              std::get<1>(scores).index({keep}).unsqueeze(1).to(torch::kFloat)}, 1);
      write_detections(val_out, step, dets);
      std::cout << step << " loss " << loss.item<float>() << " dets " << dets.size(0) << "\n";
    }
  }
}
