// speech: keyword spotting: log-mel front end, a GRU, a classifier on the last frame.
#pragma once
#include <torch/torch.h>

#include "asr_features.h"

namespace asr {

class KeywordNetImpl : public torch::nn::Module {
 public:
  KeywordNetImpl(int64_t keywords, int64_t hidden);
  torch::Tensor forward(const torch::Tensor& waves);  // (N, keywords) logits
  torch::Tensor features(const torch::Tensor& waves) { return frontend_(waves); }

 private:
  int64_t hidden_;
  LogMel frontend_{nullptr};
  torch::nn::GRU gru_{nullptr};
  torch::nn::Linear head_{nullptr};
};
TORCH_MODULE(KeywordNet);

}  // namespace asr
