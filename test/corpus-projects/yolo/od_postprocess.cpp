// yolo: host-side NMS over decoded boxes.
#include "od_postprocess.h"

#include <algorithm>

namespace od {

namespace {

float iou(const float* a, const float* b) {
  const float ix = std::max(0.0f, std::min(a[2], b[2]) - std::max(a[0], b[0]));
  const float iy = std::max(0.0f, std::min(a[3], b[3]) - std::max(a[1], b[1]));
  const float inter = ix * iy;
  const float uni = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
  return uni > 0 ? inter / uni : 0.0f;
}

}  // namespace

std::vector<Detection> nms_host(const torch::Tensor& boxes, const torch::Tensor& scores, const torch::Tensor& classes,
                                float iou_threshold, float score_threshold) {
  auto b = boxes.accessor<float, 2>();  // BUG(device-host-access): od_detect.cpp passes boxes decoded from the model load_detector (od_model.cpp) moved to the device
  std::vector<Detection> candidates;
  for (int64_t i = 0; i < b.size(0); ++i) {
    const float s = scores[i].item<float>();
    if (s >= score_threshold) candidates.push_back({b[i][0], b[i][1], b[i][2], b[i][3], s, classes[i].item<int64_t>()});
  }
  std::sort(candidates.begin(), candidates.end(), [](const Detection& l, const Detection& r) { return l.score > r.score; });
  std::vector<Detection> kept;
  for (const auto& c : candidates) {
    bool suppressed = false;
    for (const auto& k : kept) suppressed = suppressed || (k.cls == c.cls && iou(&k.x1, &c.x1) > iou_threshold);
    if (!suppressed) kept.push_back(c);
  }
  return kept;
}

TemperatureScalerImpl::TemperatureScalerImpl() { log_t_ = register_parameter("log_t", torch::zeros({1})); }

torch::Tensor TemperatureScalerImpl::forward(const torch::Tensor& logits) { return logits / log_t_.exp(); }

}  // namespace od
