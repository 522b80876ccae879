// speech: keyword k is a sine at 4 * (k + 1) cycles per window.
#include "asr_data.h"

#include <cmath>

namespace asr {

Batch make_batch(int64_t n, int64_t keywords) {
  auto labels = torch::randint(keywords, {n}, torch::kLong);
  auto t = torch::arange(512).to(torch::kFloat).unsqueeze(0) / 64.0;
  auto freq = (labels.to(torch::kFloat) + 1).unsqueeze(1) * 4.0;
  return {torch::sin(2 * M_PI * freq * t), labels};
}

WaveAugmentImpl::WaveAugmentImpl(double min_gain, double max_gain) : min_gain_(min_gain), max_gain_(max_gain) {}

torch::Tensor WaveAugmentImpl::forward(const torch::Tensor& waves) {
  auto gain = torch::empty({waves.size(0), 1}).uniform_(min_gain_, max_gain_);
  return waves * gain + 0.01 * torch::randn(waves.sizes());
}

std::pair<torch::Tensor, torch::Tensor> to_device(Batch& batch, torch::Device device) {
  batch.waves = batch.waves.to(device);
  batch.labels = batch.labels.to(device);
  return {batch.waves, batch.labels};
}

}  // namespace asr
