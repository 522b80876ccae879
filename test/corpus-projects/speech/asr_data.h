// speech: synthetic tones per keyword, waveform augmentation and device placement.
#pragma once
#include <torch/torch.h>

#include <utility>

namespace asr {

struct Batch {
  torch::Tensor waves;   // (N, 512)
  torch::Tensor labels;  // (N) int64
};

Batch make_batch(int64_t n, int64_t keywords);

// Random gain and a little noise, applied to CPU waveforms before they are moved.
class WaveAugmentImpl : public torch::nn::Module {
 public:
  WaveAugmentImpl(double min_gain, double max_gain);
  torch::Tensor forward(const torch::Tensor& waves);

 private:
  double min_gain_, max_gain_;
};
TORCH_MODULE(WaveAugment);

// Moves both fields of the batch in place and returns them.
std::pair<torch::Tensor, torch::Tensor> to_device(Batch& batch, torch::Device device);

}  // namespace asr
