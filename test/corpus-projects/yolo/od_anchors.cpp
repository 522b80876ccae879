// yolo: cell offsets for decoding.
#include "od_anchors.h"

namespace od {

torch::Tensor make_grid(int64_t h, int64_t w) {
  auto yx = torch::meshgrid({torch::arange(h), torch::arange(w)}, "ij");  // BUG(device-factory-without-device): TinyYolo::decode (od_model.cpp) adds this grid to the head's output, on the device od_train.cpp/od_detect.cpp put the model on
  return torch::stack({yx[1], yx[0]}, -1).unsqueeze(0).to(torch::kFloat);
}

}  // namespace od
