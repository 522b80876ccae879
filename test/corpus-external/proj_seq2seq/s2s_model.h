// Transformer encoder-decoder for translation.
#pragma once

#include <torch/torch.h>

struct TranslatorImpl : torch::nn::Module {
  TranslatorImpl(int64_t src_vocab, int64_t tgt_vocab, int64_t d_model = 256, int64_t heads = 4, int64_t layers = 3);
  // src [B, S], tgt_in [B, T] token ids; returns logits [B, T, V].
  torch::Tensor forward(const torch::Tensor& src, const torch::Tensor& tgt_in);
  // Greedy decoding of a batch of source sentences.
  torch::Tensor greedy_decode(const torch::Tensor& src, int64_t max_len);

  int64_t d_model;
  torch::nn::Embedding src_embed{nullptr}, tgt_embed{nullptr};
  torch::nn::Transformer transformer{nullptr};
  torch::nn::Linear generator{nullptr};
  torch::Tensor positions;  // registered buffer, [max_len, d_model]

 private:
  torch::Tensor embed(torch::nn::Embedding& table, const torch::Tensor& ids);
};
TORCH_MODULE(Translator);
