// yolo: the object's colour channel is its class.
#include "od_data.h"

namespace od {

DetBatch synth_batch(int64_t n, int64_t size, int64_t num_classes) {
  const int64_t cells = (size / 4) * (size / 4);
  auto images = torch::rand({n, 3, size, size}) * 0.1;
  auto boxes = torch::zeros({n, cells, 4});
  auto labels = torch::zeros({n, cells}, torch::kLong);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t cls = i % num_classes, x0 = (3 * i) % (size - 6), y0 = (5 * i) % (size - 6);
    images[i][cls].slice(0, y0, y0 + 6).slice(1, x0, x0 + 6).fill_(1.0);
    boxes[i].copy_(torch::tensor({float(x0), float(y0), float(x0 + 6), float(y0 + 6)}).expand({cells, 4}));
    labels[i].fill_(cls);
  }
  return {images, boxes, labels};
}

void to_device(DetBatch& batch, torch::Device device) {
  batch.images = batch.images.to(device);
  batch.boxes = batch.boxes.to(device);
}

}  // namespace od
