// speech: Hann-windowed frames, power spectrum, triangular filters, log.
#include "asr_features.h"

namespace asr {

namespace {

// (win / 2 + 1, mels) triangular filters, evenly spaced (a linear, not a mel, scale keeps it short).
torch::Tensor triangular_filters(int64_t bins, int64_t mels) {
  auto centers = torch::linspace(0, bins - 1, mels + 2);
  auto freqs = torch::arange(bins).to(torch::kFloat).unsqueeze(1);
  auto lo = centers.slice(0, 0, mels), mid = centers.slice(0, 1, mels + 1), hi = centers.slice(0, 2, mels + 2);
  auto up = (freqs - lo) / (mid - lo), down = (hi - freqs) / (hi - mid);
  return torch::clamp_min(torch::minimum(up, down), 0.0);
}

}  // namespace

LogMelImpl::LogMelImpl(int64_t win, int64_t hop, int64_t mels) : win_(win), hop_(hop) {
  window_ = register_buffer("window", torch::hann_window(win));
  filterbank_ = register_buffer("filterbank", triangular_filters(win / 2 + 1, mels));
}

torch::Tensor LogMelImpl::forward(const torch::Tensor& waves) {
  auto frames = waves.unfold(1, win_, hop_) * window_;
  auto power = torch::fft::rfft(frames).abs().pow(2);
  return torch::log(power.matmul(filterbank_) + 1e-6);
}

}  // namespace asr
