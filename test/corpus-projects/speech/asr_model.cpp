// speech: the GRU's initial state follows the features' device and dtype.
#include "asr_model.h"

namespace asr {

KeywordNetImpl::KeywordNetImpl(int64_t keywords, int64_t hidden) : hidden_(hidden) {
  frontend_ = register_module("frontend", LogMel(64, 32, 16));
  gru_ = register_module("gru", torch::nn::GRU(torch::nn::GRUOptions(16, hidden).batch_first(true)));
  head_ = register_module("head", torch::nn::Linear(hidden, keywords));
}

torch::Tensor KeywordNetImpl::forward(const torch::Tensor& waves) {
  auto feats = frontend_(waves);
  auto h0 = torch::zeros({1, feats.size(0), hidden_}, feats.options());
  auto out = std::get<0>(gru_->forward(feats, h0));
  return head_(out.select(1, -1));
}

}  // namespace asr
