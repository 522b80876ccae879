#pragma once
// Log-mel front end, SpecAugment-style masking, and the decision rule of the spotter.
#include <torch/torch.h>

#include <vector>

struct MelConfig {
  int64_t sample_rate = 16000;
  int64_t n_fft = 512;
  int64_t hop = 160;
  int64_t n_mels = 40;
};

torch::Tensor mel_filterbank(const MelConfig& cfg);                       // [n_mels, n_fft/2+1]
torch::Tensor log_mel(const torch::Tensor& wave, const MelConfig& cfg);   // [B, S] -> [B, n_mels, T]
torch::Tensor spec_augment(const torch::Tensor& feats, int64_t max_width);
std::vector<int64_t> decisions(const torch::Tensor& logits, float threshold);  // -1 where unsure
