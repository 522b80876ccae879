// Sentence classifier: embedding + bidirectional GRU over packed, variable-length batches.
#include <torch/torch.h>

#include <algorithm>
#include <iostream>
#include <vector>

struct TextBatch {
  torch::Tensor tokens;   // [B, T] int64, padded with 0
  torch::Tensor lengths;  // [B] int64, stays on the CPU (pack_padded_sequence wants it there)
  torch::Tensor labels;   // [B] int64
};

TextBatch collate(const std::vector<std::vector<int64_t>>& sents, const std::vector<int64_t>& labels) {
  int64_t T = 0;
  for (const auto& s : sents) T = std::max<int64_t>(T, s.size());
  auto tokens = torch::zeros({static_cast<int64_t>(sents.size()), T}, torch::kLong);
  std::vector<int64_t> lens;
  for (size_t i = 0; i < sents.size(); ++i) {
    lens.push_back(static_cast<int64_t>(sents[i].size()));
    for (size_t j = 0; j < sents[i].size(); ++j) tokens[i][j] = sents[i][j];
  }
  return {tokens, torch::tensor(lens), torch::tensor(labels)};
}

struct GRUClassifierImpl : torch::nn::Module {
  GRUClassifierImpl(int64_t vocab, int64_t emb, int64_t hidden, int64_t classes) {
    embed = register_module("embed", torch::nn::Embedding(torch::nn::EmbeddingOptions(vocab, emb).padding_idx(0)));
    gru = register_module("gru", torch::nn::GRU(torch::nn::GRUOptions(emb, hidden).batch_first(true).bidirectional(true)));
    out = register_module("out", torch::nn::Linear(4 * hidden, classes));
  }
  torch::Tensor forward(const torch::Tensor& tokens, const torch::Tensor& lengths) {
    auto x = embed(tokens);
    auto packed = torch::nn::utils::rnn::pack_padded_sequence(x, lengths, /*batch_first=*/true, /*enforce_sorted=*/false);
    auto res = gru->forward_with_packed_input(packed);
    auto unpacked = torch::nn::utils::rnn::pad_packed_sequence(std::get<0>(res), /*batch_first=*/true);
    auto seq = std::get<0>(unpacked);
    // mean over the valid steps, and the output at the last valid step
    auto denom = lengths.to(seq.device(), torch::kFloat).unsqueeze(1);
    auto mean = seq.sum(1) / denom;
    auto batch_idx = torch::arange(seq.size(0), torch::kLong);
    auto last = seq.index({batch_idx, lengths - 1});
    return out(torch::cat({mean, last}, 1));
  }
  torch::nn::Embedding embed{nullptr};
  torch::nn::GRU gru{nullptr};
  torch::nn::Linear out{nullptr};
};
TORCH_MODULE(GRUClassifier);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  GRUClassifier model(5000, 128, 128, 2);
  model->to(device);
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-3));

  std::vector<std::vector<int64_t>> sents = {{5, 8, 13}, {21, 34}, {55, 89, 144, 233}, {7}};
  std::vector<int64_t> labels = {1, 0, 1, 0};
  for (int step = 0; step < 100; ++step) {
    auto b = collate(sents, labels);
    auto logits = model->forward(b.tokens.to(device), b.lengths);
    auto loss = torch::cross_entropy_loss(logits, b.labels.to(device));
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 20 == 0) std::cout << step << " " << loss.item<float>() << "\n";
  }
}
