#include "det_anchors.h"

#include <cmath>

torch::Tensor grid_anchors(int64_t feat_h, int64_t feat_w, int64_t stride, const std::vector<double>& sizes,
                           const std::vector<double>& ratios) {
  std::vector<float> base;
  for (double s : sizes)
    for (double r : ratios) {
      const double w = s * std::sqrt(1.0 / r), h = s * std::sqrt(r);
      base.insert(base.end(), {float(-w / 2), float(-h / 2), float(w / 2), float(h / 2)});
    }
  auto cell = torch::tensor(base).view({-1, 4});
  auto sy = (torch::arange(feat_h, torch::kFloat) + 0.5) * stride;
  auto sx = (torch::arange(feat_w, torch::kFloat) + 0.5) * stride;
  auto g = torch::meshgrid({sy, sx}, "ij");
  auto shifts = torch::stack({g[1], g[0], g[1], g[0]}, -1).view({-1, 1, 4});
  return (shifts + cell.view({1, -1, 4})).view({-1, 4});
}

torch::Tensor box_iou(const torch::Tensor& a, const torch::Tensor& b) {
  auto area_a = (a.select(1, 2) - a.select(1, 0)) * (a.select(1, 3) - a.select(1, 1));
  auto area_b = (b.select(1, 2) - b.select(1, 0)) * (b.select(1, 3) - b.select(1, 1));
  auto lt = torch::max(a.unsqueeze(1).slice(2, 0, 2), b.unsqueeze(0).slice(2, 0, 2));
  auto rb = torch::min(a.unsqueeze(1).slice(2, 2, 4), b.unsqueeze(0).slice(2, 2, 4));
  auto wh = (rb - lt).clamp_min(0);
  auto inter = wh.select(2, 0) * wh.select(2, 1);
  return inter / (area_a.unsqueeze(1) + area_b.unsqueeze(0) - inter);
}

Assignment assign(const torch::Tensor& anchors, const torch::Tensor& gt_boxes, double pos_iou, double neg_iou) {
  auto iou = box_iou(anchors, gt_boxes);
  auto best = iou.max(1);
  auto best_iou = std::get<0>(best);
  auto labels = torch::full({anchors.size(0)}, -1, torch::kLong);  // BUG(device-factory-without-device): CPU labels indexed with masks computed from the device IoU (det_train.cpp passes device boxes)
  labels.index_put_({best_iou < neg_iou}, 0);
  labels.index_put_({best_iou >= pos_iou}, 1);
  // every ground-truth box keeps its best anchor, even below the threshold
  auto best_anchor = std::get<1>(iou.max(0));
  labels.index_put_({best_anchor}, 1);
  return {labels, std::get<1>(best)};
}

torch::Tensor encode(const torch::Tensor& anchors, const torch::Tensor& boxes) {
  auto aw = anchors.select(1, 2) - anchors.select(1, 0), ah = anchors.select(1, 3) - anchors.select(1, 1);
  auto ax = anchors.select(1, 0) + 0.5 * aw, ay = anchors.select(1, 1) + 0.5 * ah;
  auto bw = boxes.select(1, 2) - boxes.select(1, 0), bh = boxes.select(1, 3) - boxes.select(1, 1);
  auto bx = boxes.select(1, 0) + 0.5 * bw, by = boxes.select(1, 1) + 0.5 * bh;
  return torch::stack({(bx - ax) / aw * 10.0, (by - ay) / ah * 10.0, torch::log(bw / aw) * 5.0, torch::log(bh / ah) * 5.0}, 1);
}

torch::Tensor decode(const torch::Tensor& anchors, const torch::Tensor& deltas) {
  auto aw = anchors.select(1, 2) - anchors.select(1, 0), ah = anchors.select(1, 3) - anchors.select(1, 1);
  auto ax = anchors.select(1, 0) + 0.5 * aw, ay = anchors.select(1, 1) + 0.5 * ah;
  auto cx = ax + deltas.select(1, 0) / 10.0 * aw, cy = ay + deltas.select(1, 1) / 10.0 * ah;
  auto w = aw * torch::exp(deltas.select(1, 2).clamp_max(4.0) / 5.0), h = ah * torch::exp(deltas.select(1, 3).clamp_max(4.0) / 5.0);
  return torch::stack({cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2}, 1);
}
