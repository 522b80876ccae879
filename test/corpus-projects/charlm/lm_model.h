// charlm: a character-level LSTM language model.
#pragma once
#include <torch/torch.h>

#include <tuple>

namespace lm {

using State = std::tuple<torch::Tensor, torch::Tensor>;  // (h, c), each (layers, batch, hidden)

class CharLMImpl : public torch::nn::Module {
 public:
  CharLMImpl(int64_t vocab, int64_t emb, int64_t hidden, int64_t layers);
  // tokens (batch, time) int64 -> logits (batch, time, vocab) and the next state
  std::tuple<torch::Tensor, State> forward(const torch::Tensor& tokens, const State& state);
  State initial_state(int64_t batch) const;

 private:
  int64_t hidden_, layers_;
  torch::nn::Embedding embed_{nullptr};
  torch::nn::LSTM lstm_{nullptr};
  torch::nn::Linear proj_{nullptr};  // BUG(device-unregistered-member): assigned in lm_model.cpp's constructor without register_module; model->to(device) in lm_train.cpp does not move it (and the optimizer never sees it)
  torch::nn::Linear head_{nullptr};
};
TORCH_MODULE(CharLM);

}  // namespace lm
