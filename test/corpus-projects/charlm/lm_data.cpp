// charlm: a tiny built-in text; windows are cut at random offsets.
#include "lm_data.h"

#include <algorithm>
#include <vector>

namespace lm {

const std::string& sample_text() {
  static const std::string text =
      "the quick brown fox jumps over the lazy dog. a stitch in time saves nine. "
      "all that glitters is not gold. the early bird catches the worm. ";
  return text;
}

int64_t Vocab::index(char c) const {
  auto pos = chars.find(c);
  return pos == std::string::npos ? 0 : static_cast<int64_t>(pos);
}

Vocab build_vocab(const std::string& text) {
  std::string chars = text;
  std::sort(chars.begin(), chars.end());
  chars.erase(std::unique(chars.begin(), chars.end()), chars.end());
  return {chars};
}

torch::Tensor encode(const std::string& text, const Vocab& vocab) {
  std::vector<int64_t> ids;
  for (char c : text) ids.push_back(vocab.index(c));
  return torch::tensor(ids, torch::kLong);
}

std::pair<torch::Tensor, torch::Tensor> random_windows(const torch::Tensor& corpus, int64_t batch, int64_t len) {
  auto starts = torch::randint(corpus.size(0) - len - 1, {batch}, torch::kLong);
  std::vector<torch::Tensor> xs, ys;
  for (int64_t i = 0; i < batch; ++i) {
    const auto s = starts[i].item<int64_t>();
    xs.push_back(corpus.slice(0, s, s + len));
    ys.push_back(corpus.slice(0, s + 1, s + len + 1));
  }
  return {torch::stack(xs), torch::stack(ys)};
}

}  // namespace lm
