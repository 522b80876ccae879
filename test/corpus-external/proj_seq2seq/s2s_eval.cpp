#include "s2s_eval.h"

#include <algorithm>
#include <cmath>

double perplexity(Translator& model, const std::vector<PairBatch>& batches) {
  torch::NoGradGuard no_grad;
  model->eval();
  double nll = 0;
  int64_t tokens = 0;
  for (const auto& b : batches) {
    auto tgt_in = b.tgt.narrow(1, 0, b.tgt.size(1) - 1);
    auto tgt_out = b.tgt.narrow(1, 1, b.tgt.size(1) - 1);
    auto logits = model->forward(b.src, tgt_in);  // BUG(device-unmoved-input): s2s_train.cpp moved the model to the device; these batches are CPU tensors
    auto opts = torch::nn::functional::CrossEntropyFuncOptions().ignore_index(kPad).reduction(torch::kSum);
    auto loss = torch::nn::functional::cross_entropy(logits.reshape({-1, logits.size(-1)}), tgt_out.reshape({-1}).to(logits.device()), opts);
    nll += loss.item<double>();
    tokens += tgt_out.ne(kPad).sum().item<int64_t>();
  }
  return std::exp(nll / std::max<int64_t>(tokens, 1));
}

std::pair<double, double> mean_lengths(const std::vector<PairBatch>& batches) {
  std::vector<torch::Tensor> src_lens, tgt_lens;
  for (const auto& b : batches) {
    src_lens.push_back(b.src.ne(kPad).sum(1));
    tgt_lens.push_back(b.tgt.ne(kPad).sum(1));
  }
  auto s = torch::cat(src_lens).to(torch::kDouble), t = torch::cat(tgt_lens).to(torch::kDouble);
  return {s.mean().item<double>(), t.mean().item<double>()};
}
