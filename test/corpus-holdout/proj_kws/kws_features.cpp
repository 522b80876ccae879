#include "kws_features.h"

#include <cmath>

static double hz_to_mel(double hz) { return 2595.0 * std::log10(1.0 + hz / 700.0); }
static double mel_to_hz(double mel) { return 700.0 * (std::pow(10.0, mel / 2595.0) - 1.0); }

torch::Tensor mel_filterbank(const MelConfig& cfg) {
  const int64_t n_freq = cfg.n_fft / 2 + 1;
  auto fb = torch::zeros({cfg.n_mels, n_freq});  // BUG(device-factory-without-device): a CPU matrix; log_mel() multiplies it with the spectrogram of the device waves that kws_train.cpp passes
  auto a = fb.accessor<float, 2>();  // fb is a host tensor: filling it through an accessor is fine
  const double lo = hz_to_mel(20.0), hi = hz_to_mel(cfg.sample_rate / 2.0);
  for (int64_t m = 0; m < cfg.n_mels; ++m) {
    const double f0 = mel_to_hz(lo + (hi - lo) * m / (cfg.n_mels + 1));
    const double f1 = mel_to_hz(lo + (hi - lo) * (m + 1) / (cfg.n_mels + 1));
    const double f2 = mel_to_hz(lo + (hi - lo) * (m + 2) / (cfg.n_mels + 1));
    for (int64_t k = 0; k < n_freq; ++k) {
      const double f = static_cast<double>(k) * cfg.sample_rate / cfg.n_fft;
      const double w = f < f1 ? (f - f0) / (f1 - f0) : (f2 - f) / (f2 - f1);
      a[m][k] = static_cast<float>(std::max(0.0, w));
    }
  }
  return fb;
}

torch::Tensor log_mel(const torch::Tensor& wave, const MelConfig& cfg) {
  auto window = torch::hann_window(cfg.n_fft);  // BUG(device-factory-without-device): a CPU window for the stft of kws_train.cpp's device waves
  auto spec = torch::stft(wave, cfg.n_fft, cfg.hop, cfg.n_fft, window, /*normalized=*/false, /*onesided=*/true,
                          /*return_complex=*/true).abs().pow(2);
  return torch::log(mel_filterbank(cfg).matmul(spec) + 1e-6);
}

torch::Tensor spec_augment(const torch::Tensor& feats, int64_t max_width) {
  const int64_t B = feats.size(0), F = feats.size(1), T = feats.size(2);
  auto long_opts = feats.options().dtype(torch::kLong);
  auto f_w = torch::randint(0, max_width, {B, 1, 1}, long_opts), f_0 = torch::randint(0, F - max_width, {B, 1, 1}, long_opts);
  auto t_w = torch::randint(0, max_width, {B, 1, 1}, long_opts), t_0 = torch::randint(0, T - max_width, {B, 1, 1}, long_opts);
  auto f = torch::arange(F, long_opts).view({1, F, 1}), t = torch::arange(T, long_opts).view({1, 1, T});
  auto masked = ((f >= f_0) & (f < f_0 + f_w)) | ((t >= t_0) & (t < t_0 + t_w));
  return feats.masked_fill(masked, 0.0);
}

std::vector<int64_t> decisions(const torch::Tensor& logits, float threshold) {
  auto probs = torch::softmax(logits, 1).contiguous();
  auto p = probs.accessor<float, 2>();  // BUG(device-host-access): kws_train.cpp passes the logits of the moved net, still on the device
  std::vector<int64_t> out;
  for (int64_t i = 0; i < p.size(0); ++i) {
    int64_t best = 0;
    for (int64_t c = 1; c < p.size(1); ++c)
      if (p[i][c] > p[i][best]) best = c;
    out.push_back(p[i][best] >= threshold ? best : -1);
  }
  return out;
}
