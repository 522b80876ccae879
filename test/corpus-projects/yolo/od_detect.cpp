// yolo: evaluation entry point: detect on synthetic images, calibrate scores, run NMS.
#include <iostream>

#include "od_data.h"
#include "od_model.h"
#include "od_postprocess.h"

int main(int argc, char** argv) {
  const std::string ckpt = argc > 1 ? argv[1] : "/tmp/torch-tidy-corpus-projects/od_tinyyolo.pt";
  constexpr int64_t kClasses = 3;
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  od::TinyYolo model(kClasses, 4.0);
  od::load_detector(model, ckpt, device);
  model->eval();
  od::TemperatureScaler calibrate;

  torch::NoGradGuard no_grad;
  auto batch = od::synth_batch(2, 16, kClasses);
  auto [boxes, objectness, class_logits] = model->decode(model->forward(batch.images.to(device)));
  auto class_prob = torch::softmax(calibrate->forward(class_logits), -1);  // BUG(device-unmoved-module): 'calibrate' is never moved, its input comes from the model load_detector (od_model.cpp) moved to the device
  auto [class_score, class_id] = class_prob.max(-1);
  auto score = torch::sigmoid(objectness) * class_score;
  for (int64_t i = 0; i < boxes.size(0); ++i) {
    auto detections = od::nms_host(boxes[i], score[i], class_id[i], 0.5f, 0.05f);
    std::cout << "image " << i << ": " << detections.size() << " detections\n";
  }
  return 0;
}
