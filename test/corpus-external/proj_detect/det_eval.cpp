// Detection output formatting shared by the trainer's validation pass and the offline evaluator.
#include <ostream>

#include "det_model.h"

void write_detections(std::ostream& out, int64_t image_id, const torch::Tensor& dets) {
  auto rows = dets.contiguous();
  const float* d = rows.data_ptr<float>();  // BUG(device-host-access): det_train.cpp passes detections that are still on the device
  for (int64_t i = 0; i < rows.size(0); ++i) {
    const float* r = d + 6 * i;
    out << image_id << ' ' << r[0] << ' ' << r[1] << ' ' << r[2] << ' ' << r[3] << ' ' << r[4] << ' ' << static_cast<int64_t>(r[5])
        << '\n';
  }
}
