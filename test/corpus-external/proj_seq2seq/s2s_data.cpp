#include "s2s_data.h"

#include <algorithm>
#include <cmath>
#include <map>

int64_t Vocab::id(const std::string& w) const {
  auto it = index.find(w);
  return it == index.end() ? kUnk : it->second;
}

Vocab build_vocab(const std::vector<std::vector<std::string>>& sentences, int64_t min_count) {
  std::map<std::string, int64_t> freq;
  for (const auto& s : sentences)
    for (const auto& w : s) ++freq[w];
  Vocab v;
  for (const char* special : {"<pad>", "<s>", "</s>", "<unk>"}) {
    v.index[special] = v.size();
    v.words.push_back(special);
    v.counts.push_back(1);
  }
  for (const auto& kv : freq) {
    if (kv.second < min_count) continue;
    v.index[kv.first] = v.size();
    v.words.push_back(kv.first);
    v.counts.push_back(kv.second);
  }
  return v;
}

namespace {
torch::Tensor pad_rows(const std::vector<std::vector<int64_t>>& rows) {
  size_t len = 0;
  for (const auto& r : rows) len = std::max(len, r.size());
  auto out = torch::full({static_cast<int64_t>(rows.size()), static_cast<int64_t>(len)}, kPad, torch::kLong);
  for (size_t i = 0; i < rows.size(); ++i)
    out[i].narrow(0, 0, rows[i].size()).copy_(torch::tensor(rows[i]));
  return out;
}
}  // namespace

PairBatch make_batch(const Vocab& sv, const Vocab& tv, const std::vector<std::vector<std::string>>& src,
                     const std::vector<std::vector<std::string>>& tgt) {
  std::vector<std::vector<int64_t>> s, t;
  for (const auto& sent : src) {
    s.emplace_back();
    for (const auto& w : sent) s.back().push_back(sv.id(w));
  }
  for (const auto& sent : tgt) {
    t.push_back({kBos});
    for (const auto& w : sent) t.back().push_back(tv.id(w));
    t.back().push_back(kEos);
  }
  return {pad_rows(s), pad_rows(t)};
}

torch::Tensor causal_mask(int64_t n) {
  return torch::triu(torch::ones({n, n}, torch::kBool), 1);  // BUG(device-factory-without-device): a CPU mask; s2s_model.cpp hands it to the attention of the moved transformer
}

torch::Tensor frequency_weights(const Vocab& tv) {
  std::vector<float> w(tv.size());
  for (int64_t i = 0; i < tv.size(); ++i) w[i] = 1.0f / std::sqrt(static_cast<float>(std::max<int64_t>(tv.counts[i], 1)));
  w[kPad] = 0.f;
  return torch::tensor(w);  // BUG(device-factory-without-device): CPU class weights; s2s_train.cpp gives them to cross_entropy with device logits
}
