// vae: each class lights one row of the image.
#include "vx_data.h"

#include <fstream>

namespace vx {

std::vector<Batch> make_batches(int64_t count, int64_t batch_size) {
  std::vector<Batch> batches;
  for (int64_t b = 0; b < count; ++b) {
    auto y = torch::randint(8, {batch_size}, torch::kLong);
    auto x = torch::rand({batch_size, 8, 8}) * 0.2;
    for (int64_t i = 0; i < batch_size; ++i) x[i][y[i].item<int64_t>()].fill_(0.9);
    batches.push_back({x.view({batch_size, 64}), y});
  }
  return batches;
}

void to_device(Batch& batch, torch::Device device) {
  batch.x = batch.x.to(device);
  batch.y = batch.y.to(device);
}

void write_pgm(const torch::Tensor& images, const std::string& path) {
  auto flat = images.contiguous();
  const float* px = flat.data_ptr<float>();  // BUG(device-host-access): vx_eval.cpp passes reconstructions of the model it moved to the device
  const int64_t n = flat.size(0);
  std::ofstream out(path);
  out << "P2\n" << 8 * n << " 8\n255\n";
  for (int64_t r = 0; r < 8; ++r) {
    for (int64_t i = 0; i < n; ++i)
      for (int64_t c = 0; c < 8; ++c) out << static_cast<int>(255 * px[i * 64 + r * 8 + c]) << ' ';
    out << '\n';
  }
}

}  // namespace vx
