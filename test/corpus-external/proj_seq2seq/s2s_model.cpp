#include "s2s_model.h"

#include <cmath>

#include "s2s_data.h"

TranslatorImpl::TranslatorImpl(int64_t src_vocab, int64_t tgt_vocab, int64_t d_model_, int64_t heads, int64_t layers)
    : d_model(d_model_) {
  src_embed = register_module("src_embed", torch::nn::Embedding(torch::nn::EmbeddingOptions(src_vocab, d_model).padding_idx(kPad)));
  tgt_embed = register_module("tgt_embed", torch::nn::Embedding(torch::nn::EmbeddingOptions(tgt_vocab, d_model).padding_idx(kPad)));
  transformer = register_module("transformer", torch::nn::Transformer(torch::nn::TransformerOptions(d_model, heads, layers, layers)
                                                                           .dim_feedforward(4 * d_model)
                                                                           .dropout(0.1)));
  generator = register_module("generator", torch::nn::Linear(d_model, tgt_vocab));
  auto pos = torch::arange(512, torch::kFloat).unsqueeze(1);
  auto freq = torch::exp(torch::arange(0, d_model, 2, torch::kFloat) * (-std::log(10000.0) / d_model));
  positions = register_buffer("positions", torch::cat({torch::sin(pos * freq), torch::cos(pos * freq)}, 1));
}

torch::Tensor TranslatorImpl::embed(torch::nn::Embedding& table, const torch::Tensor& ids) {
  auto x = table(ids) * std::sqrt(static_cast<double>(d_model));
  return (x + positions.narrow(0, 0, ids.size(1))).transpose(0, 1);  // [L, B, D]
}

torch::Tensor TranslatorImpl::forward(const torch::Tensor& src, const torch::Tensor& tgt_in) {
  auto src_pad = src.eq(kPad);
  auto tgt_pad = tgt_in.eq(kPad);
  auto tgt_mask = causal_mask(tgt_in.size(1));
  auto out = transformer->forward(embed(src_embed, src), embed(tgt_embed, tgt_in), /*src_mask=*/{}, tgt_mask,
                                  /*memory_mask=*/{}, src_pad, tgt_pad, src_pad);
  return generator(out.transpose(0, 1));
}

torch::Tensor TranslatorImpl::greedy_decode(const torch::Tensor& src, int64_t max_len) {
  torch::NoGradGuard no_grad;
  auto ys = torch::full({src.size(0), 1}, kBos, torch::kLong);  // BUG(device-factory-without-device): CPU token ids; tgt_embed's weight is on the device once s2s_train.cpp moves the model
  for (int64_t i = 0; i < max_len; ++i) {
    auto logits = forward(src, ys);
    auto next = logits.select(1, -1).argmax(-1, /*keepdim=*/true);
    ys = torch::cat({ys, next}, 1);
  }
  return ys;
}
