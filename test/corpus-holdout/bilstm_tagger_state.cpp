// BiLSTM named-entity tagger with an explicit initial state (learned-free zeros),
// plus a small character encoder that preprocesses words on the CPU.
#include <torch/torch.h>

#include <cstdio>
#include <tuple>

struct TaggerImpl : torch::nn::Module {
  TaggerImpl(int64_t vocab, int64_t dim, int64_t hidden, int64_t layers, int64_t tags)
      : hidden_(hidden), layers_(layers) {
    emb = register_module("emb", torch::nn::Embedding(vocab, dim));
    lstm = register_module("lstm", torch::nn::LSTM(torch::nn::LSTMOptions(dim + 32, hidden).num_layers(layers)
                                                       .bidirectional(true).batch_first(true)));
    out = register_module("out", torch::nn::Linear(2 * hidden, tags));
  }
  torch::Tensor forward(const torch::Tensor& words, const torch::Tensor& char_feats) {
    auto x = torch::cat({emb->forward(words), char_feats}, -1);
    const int64_t B = words.size(0);
    auto h0 = torch::zeros({2 * layers_, B, hidden_});  // BUG(device-factory-without-device): CPU initial state; main() moved the tagger, and the LSTM refuses a CPU hidden state next to device inputs
    auto c0 = torch::zeros({2 * layers_, B, hidden_});  // BUG(device-factory-without-device): same for the cell state
    auto y = std::get<0>(lstm->forward(x, std::make_tuple(h0, c0)));
    return out->forward(y);
  }
  int64_t hidden_, layers_;
  torch::nn::Embedding emb{nullptr};
  torch::nn::LSTM lstm{nullptr};
  torch::nn::Linear out{nullptr};
};
TORCH_MODULE(Tagger);

// Runs on the CPU only (it is never moved): the same zero-state pattern is fine here.
struct CharEncoderImpl : torch::nn::Module {
  CharEncoderImpl() {
    emb = register_module("emb", torch::nn::Embedding(128, 16));
    gru = register_module("gru", torch::nn::GRU(torch::nn::GRUOptions(16, 32).batch_first(true)));
  }
  torch::Tensor forward(const torch::Tensor& chars) {  // [N, L] -> [N, 32]
    auto h0 = torch::zeros({1, chars.size(0), 32});
    return std::get<1>(gru->forward(emb->forward(chars), h0)).squeeze(0);
  }
  torch::nn::Embedding emb{nullptr};
  torch::nn::GRU gru{nullptr};
};
TORCH_MODULE(CharEncoder);

int main() {
  const torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Tagger tagger(30000, 100, 128, 2, 9);
  tagger->to(device);
  CharEncoder chars;  // stays on the CPU, frozen
  chars->eval();
  torch::optim::Adam opt(tagger->parameters(), torch::optim::AdamOptions(1e-3));

  for (int step = 0; step < 5000; ++step) {
    auto words = torch::randint(0, 30000, {32, 50}, torch::kLong);
    auto spell = torch::randint(0, 128, {32 * 50, 12}, torch::kLong);
    auto tags = torch::randint(0, 9, {32, 50}, torch::kLong);
    torch::Tensor char_feats;
    {
      torch::NoGradGuard no_grad;
      char_feats = chars->forward(spell).view({32, 50, 32});
    }
    auto logits = tagger->forward(words.to(device), char_feats.to(device));
    auto loss = torch::cross_entropy_loss(logits.reshape({-1, 9}), tags.to(device).reshape({-1}));
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 250 == 0) std::printf("step %d loss %.4f\n", step, loss.item<float>());
  }
}
