// charlm: vocabulary, encoding and training windows.
#pragma once
#include <torch/torch.h>

#include <string>
#include <utility>

namespace lm {

struct Vocab {
  std::string chars;
  int64_t index(char c) const;
  char at(int64_t i) const { return chars[static_cast<size_t>(i)]; }
  int64_t size() const { return static_cast<int64_t>(chars.size()); }
};

const std::string& sample_text();
Vocab build_vocab(const std::string& text);
torch::Tensor encode(const std::string& text, const Vocab& vocab);  // (len) int64, CPU
// Random (input, next-character target) windows of `len` characters, (batch, len) each.
std::pair<torch::Tensor, torch::Tensor> random_windows(const torch::Tensor& corpus, int64_t batch, int64_t len);

}  // namespace lm
