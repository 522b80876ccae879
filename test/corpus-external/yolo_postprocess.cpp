// YOLO-style post-processing: decode a grid head into boxes, then greedy NMS on the host.
#include <torch/torch.h>

#include <algorithm>
#include <iostream>
#include <vector>

class YoloDecoder {
 public:
  YoloDecoder(int64_t num_classes, int64_t stride, torch::Device device) : nc_(num_classes), stride_(stride) {
    anchors_ = torch::tensor({10.f, 13.f, 16.f, 30.f, 33.f, 23.f}, torch::TensorOptions().device(device)).view({3, 2});
  }

  // pred: [B, 3 * (5 + nc), H, W] straight from the head
  torch::Tensor decode(const torch::Tensor& raw) const {
    const int64_t B = raw.size(0), H = raw.size(2), W = raw.size(3);
    auto pred = raw.view({B, 3, 5 + nc_, H, W}).permute({0, 1, 3, 4, 2}).contiguous();
    auto g = torch::meshgrid({torch::arange(H), torch::arange(W)}, "ij");  // BUG(device-factory-without-device): the CPU grid is added to the device predictions below
    auto grid = torch::stack({g[1], g[0]}, -1).view({1, 1, H, W, 2}).to(torch::kFloat);
    auto xy = (pred.slice(-1, 0, 2).sigmoid() + grid) * static_cast<double>(stride_);
    auto wh = pred.slice(-1, 2, 4).exp() * anchors_.view({1, 3, 1, 1, 2});
    auto rest = pred.slice(-1, 4).sigmoid();
    return torch::cat({xy - wh / 2, xy + wh / 2, rest}, -1).view({B, -1, 5 + nc_});
  }

 private:
  int64_t nc_, stride_;
  torch::Tensor anchors_;
};

float iou(const float* a, const float* b) {
  float x1 = std::max(a[0], b[0]), y1 = std::max(a[1], b[1]);
  float x2 = std::min(a[2], b[2]), y2 = std::min(a[3], b[3]);
  float inter = std::max(0.f, x2 - x1) * std::max(0.f, y2 - y1);
  float area = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
  return area > 0 ? inter / area : 0.f;
}

// Greedy NMS over [N, 4] boxes; returns the indices kept, best first.
torch::Tensor nms(const torch::Tensor& boxes, const torch::Tensor& scores, float thr) {
  auto b = boxes.to(torch::kCPU).contiguous();
  auto order = std::get<1>(scores.to(torch::kCPU).sort(0, /*descending=*/true));
  const float* bp = b.data_ptr<float>();
  auto oa = order.accessor<int64_t, 1>();
  std::vector<int64_t> keep;
  std::vector<char> dead(b.size(0), 0);
  for (int64_t i = 0; i < oa.size(0); ++i) {
    int64_t cur = oa[i];
    if (dead[cur]) continue;
    keep.push_back(cur);
    for (int64_t j = i + 1; j < oa.size(0); ++j)
      if (!dead[oa[j]] && iou(bp + 4 * cur, bp + 4 * oa[j]) > thr) dead[oa[j]] = 1;
  }
  return torch::tensor(keep);  // BUG(device-factory-without-device): CPU indices; postprocess() gives them to index_select on the device scores
}

struct Detections {
  torch::Tensor boxes, scores, labels;
};

Detections postprocess(const torch::Tensor& decoded, float conf_thr, float iou_thr) {
  auto det = decoded[0];
  auto obj = det.select(1, 4);
  auto cls = det.slice(1, 5);
  auto best = cls.max(1);
  auto score = obj * std::get<0>(best);
  auto mask = score > conf_thr;
  auto boxes = det.index({mask}).slice(1, 0, 4);
  auto scores = score.index({mask});
  auto labels = std::get<1>(best).index({mask});
  auto keep = nms(boxes, scores, iou_thr);
  return {boxes.index({keep}), scores.index_select(0, keep), labels.index({keep})};
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto head = torch::nn::Conv2d(torch::nn::Conv2dOptions(256, 3 * (5 + 80), 1));
  head->to(device);
  head->eval();
  YoloDecoder decoder(80, 32, device);
  torch::NoGradGuard no_grad;
  auto features = torch::randn({1, 256, 20, 20}, torch::device(device));
  auto dets = postprocess(decoder.decode(head(features)), 0.25f, 0.45f);
  std::cout << dets.boxes.size(0) << " detections\n";
}
