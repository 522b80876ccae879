// charlm: embedding -> LSTM -> projection -> vocabulary logits.
#include "lm_model.h"

namespace lm {

CharLMImpl::CharLMImpl(int64_t vocab, int64_t emb, int64_t hidden, int64_t layers)
    : hidden_(hidden), layers_(layers) {
  embed_ = register_module("embed", torch::nn::Embedding(vocab, emb));
  lstm_ = register_module("lstm", torch::nn::LSTM(torch::nn::LSTMOptions(emb, hidden).num_layers(layers).batch_first(true)));
  proj_ = torch::nn::Linear(hidden, emb);
  head_ = register_module("head", torch::nn::Linear(emb, vocab));
}

std::tuple<torch::Tensor, State> CharLMImpl::forward(const torch::Tensor& tokens, const State& state) {
  auto [out, next] = lstm_->forward(embed_(tokens), state);
  return {head_(torch::tanh(proj_(out))), next};
}

State CharLMImpl::initial_state(int64_t batch) const {
  auto h = torch::zeros({layers_, batch, hidden_});  // BUG(device-factory-without-device): the state goes into lstm_ with embeddings on the device the model was moved to (lm_train.cpp, lm_generate.cpp)
  return {h, torch::zeros_like(h)};
}

}  // namespace lm
