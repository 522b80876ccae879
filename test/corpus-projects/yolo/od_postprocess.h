// yolo: score calibration and non-maximum suppression.
#pragma once
#include <torch/torch.h>

#include <vector>

namespace od {

struct Detection {
  float x1, y1, x2, y2, score;
  int64_t cls;
};

// Class-aware greedy NMS over one image: boxes (K, 4), scores (K), classes (K).
std::vector<Detection> nms_host(const torch::Tensor& boxes, const torch::Tensor& scores, const torch::Tensor& classes,
                                float iou_threshold, float score_threshold);

// Temperature scaling of class logits (one learned temperature).
class TemperatureScalerImpl : public torch::nn::Module {
 public:
  TemperatureScalerImpl();
  torch::Tensor forward(const torch::Tensor& logits);

 private:
  torch::Tensor log_t_;
};
TORCH_MODULE(TemperatureScaler);

}  // namespace od
