// speech: a log-mel front end computed inside the model.
#pragma once
#include <torch/torch.h>

namespace asr {

class LogMelImpl : public torch::nn::Module {
 public:
  LogMelImpl(int64_t win, int64_t hop, int64_t mels);
  torch::Tensor forward(const torch::Tensor& waves);  // (N, samples) -> (N, frames, mels)

 private:
  int64_t win_, hop_;
  torch::Tensor window_;
  torch::Tensor filterbank_;
};
TORCH_MODULE(LogMel);

}  // namespace asr
