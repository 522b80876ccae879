// Post-processing of a single-stage detector: decode boxes on the device, then a
// greedy NMS on the host (the detector's outputs are few after thresholding).
#include <torch/torch.h>

#include <algorithm>
#include <cstdio>
#include <vector>

struct Detections {
  torch::Tensor boxes;   // [N, 4] x1 y1 x2 y2
  torch::Tensor scores;  // [N]
};

static float iou(const float* a, const float* b) {
  const float w = std::max(0.f, std::min(a[2], b[2]) - std::max(a[0], b[0]));
  const float h = std::max(0.f, std::min(a[3], b[3]) - std::max(a[1], b[1]));
  const float inter = w * h;
  return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter + 1e-6f);
}

static std::vector<int64_t> greedy_nms(const Detections& det, float thresh) {
  auto order = std::get<1>(det.scores.sort(0, /*descending=*/true)).to(torch::kCPU);
  auto boxes = det.boxes.accessor<float, 2>();  // BUG(device-host-access): decode() leaves the boxes on the model's device; the accessor reads them on the host
  auto ord = order.accessor<int64_t, 1>();
  std::vector<int64_t> keep;
  std::vector<bool> dead(static_cast<size_t>(ord.size(0)), false);
  for (int64_t i = 0; i < ord.size(0); ++i) {
    if (dead[i]) continue;
    keep.push_back(ord[i]);
    for (int64_t j = i + 1; j < ord.size(0); ++j)
      if (!dead[j] && iou(&boxes[ord[i]][0], &boxes[ord[j]][0]) > thresh) dead[j] = true;
  }
  return keep;
}

static Detections decode(const torch::Tensor& raw, float score_thresh) {  // raw: [A, 5] cx cy w h logit
  auto scores = torch::sigmoid(raw.select(1, 4));
  auto keep = scores > score_thresh;
  auto r = raw.index({keep});
  auto cxcy = r.slice(1, 0, 2), wh = r.slice(1, 2, 4);
  return {torch::cat({cxcy - wh / 2, cxcy + wh / 2}, 1).contiguous(), scores.index({keep})};
}

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto head = torch::nn::Sequential(torch::nn::Conv2d(torch::nn::Conv2dOptions(256, 5, 1)), torch::nn::Flatten(torch::nn::FlattenOptions().start_dim(2)));
  head->to(device);
  head->eval();
  torch::NoGradGuard no_grad;

  auto feats = torch::randn({1, 256, 40, 40}, torch::TensorOptions().device(device));
  auto raw = head->forward(feats).squeeze(0).t().contiguous() * 20;
  Detections det = decode(raw, 0.5f);
  auto keep = greedy_nms(det, 0.45f);

  const float* best = det.boxes.index({keep.empty() ? 0 : keep[0]}).cpu().data_ptr<float>();  // BUG(device-host-access): points into a temporary host copy that is destroyed at the end of this statement
  if (!keep.empty()) std::printf("best box %.1f %.1f %.1f %.1f\n", best[0], best[1], best[2], best[3]);

  auto kept_scores = det.scores.index_select(0, torch::tensor(keep, torch::kLong).to(det.scores.device())).cpu();
  auto s = kept_scores.accessor<float, 1>();  // a host copy bound to a variable: fine
  for (int64_t i = 0; i < s.size(0); ++i) std::printf("kept %lld score %.3f\n", static_cast<long long>(keep[i]), s[i]);
}
