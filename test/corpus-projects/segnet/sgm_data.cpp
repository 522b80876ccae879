// segnet: rectangles of one class on a background, images tinted by their mask.
#include "sgm_data.h"

namespace sgm {

std::pair<torch::Tensor, torch::Tensor> synth_batch(int64_t n, int64_t size, int64_t num_classes) {
  auto masks = torch::zeros({n, size, size}, torch::kLong);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t cls = 1 + i % (num_classes - 1), lo = (i * 3) % (size / 2);
    masks[i].slice(0, lo, lo + size / 2).slice(1, lo, lo + size / 2).fill_(cls);
  }
  auto images = torch::rand({n, 3, size, size}) * 0.3 + masks.unsqueeze(1).to(torch::kFloat) / num_classes;
  return {images, masks};
}

torch::Tensor dataset_mean() { return torch::tensor({0.45, 0.45, 0.45}).view({1, 3, 1, 1}); }

}  // namespace sgm
