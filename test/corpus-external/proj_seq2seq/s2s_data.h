// Tokenised parallel corpus, batching and masks for the translation model.
#pragma once

#include <torch/torch.h>

#include <string>
#include <unordered_map>
#include <vector>

constexpr int64_t kPad = 0, kBos = 1, kEos = 2, kUnk = 3;

struct Vocab {
  std::unordered_map<std::string, int64_t> index;
  std::vector<std::string> words;
  std::vector<int64_t> counts;
  int64_t size() const { return static_cast<int64_t>(words.size()); }
  int64_t id(const std::string& w) const;
};

Vocab build_vocab(const std::vector<std::vector<std::string>>& sentences, int64_t min_count);

struct PairBatch {
  torch::Tensor src;  // [B, S] int64, padded
  torch::Tensor tgt;  // [B, T] int64, BOS ... EOS, padded
};

PairBatch make_batch(const Vocab& sv, const Vocab& tv, const std::vector<std::vector<std::string>>& src,
                     const std::vector<std::vector<std::string>>& tgt);

// [n, n] bool mask, true above the diagonal (future positions).
torch::Tensor causal_mask(int64_t n);

// Per-token loss weights that down-weight very frequent target words.
torch::Tensor frequency_weights(const Vocab& tv);
