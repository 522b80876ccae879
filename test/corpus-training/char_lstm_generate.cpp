// Character-level LSTM language model: trains on random stand-in text, then samples
// a continuation greedily from a prompt.
#include <torch/torch.h>

#include <iostream>
#include <string>
#include <tuple>
#include <vector>

using State = std::tuple<torch::Tensor, torch::Tensor>;

struct CharLMImpl : torch::nn::Module {
  CharLMImpl(int64_t vocab, int64_t hidden, int64_t layers) {
    embed = register_module("embed", torch::nn::Embedding(vocab, hidden));
    lstm = register_module("lstm", torch::nn::LSTM(torch::nn::LSTMOptions(hidden, hidden).num_layers(layers).batch_first(true)));
    proj = register_module("proj", torch::nn::Linear(hidden, vocab));
  }
  std::tuple<torch::Tensor, State> forward(const torch::Tensor& tokens, const c10::optional<State>& state = c10::nullopt) {
    auto [out, next] = state ? lstm->forward(embed->forward(tokens), *state) : lstm->forward(embed->forward(tokens));
    return {proj->forward(out), next};
  }
  torch::nn::Embedding embed{nullptr};
  torch::nn::LSTM lstm{nullptr};
  torch::nn::Linear proj{nullptr};
};
TORCH_MODULE(CharLM);

static std::string decode(const torch::Tensor& ids) {
  std::string s;
  auto a = ids.accessor<int64_t, 1>();
  for (int64_t i = 0; i < a.size(0); ++i) s.push_back(static_cast<char>(32 + a[i]));
  return s;
}

int main() {
  const int64_t vocab = 96, seq = 128, batch = 32;
  torch::Device device(torch::kCPU);
  if (torch::cuda::is_available()) device = torch::Device(torch::kCUDA);

  CharLM lm(vocab, 512, 2);
  lm->to(device);
  torch::optim::Adam opt(lm->parameters(), torch::optim::AdamOptions(2e-3));
  auto corpus = torch::randint(0, vocab, {200000}, torch::TensorOptions().dtype(torch::kLong).device(device));

  for (int step = 0; step < 3000; ++step) {
    auto starts = torch::randint(0, corpus.size(0) - seq - 1, {batch, 1}, corpus.options());
    auto idx = starts + torch::arange(seq + 1, corpus.options());
    auto chunk = corpus.index_select(0, idx.flatten()).view({batch, seq + 1});
    auto [logits, state] = lm->forward(chunk.slice(1, 0, seq));
    auto loss = torch::cross_entropy_loss(logits.reshape({-1, vocab}), chunk.slice(1, 1).reshape({-1}));
    opt.zero_grad();
    loss.backward();
    torch::nn::utils::clip_grad_norm_(lm->parameters(), 1.0);
    opt.step();
    std::cout << "step " << step << " loss " << loss << '\n';  // BUG(device-sync-in-loop): printing a tensor copies it to the host: one device synchronisation per training step
  }

  lm->eval();
  const std::string prompt = "The model ";
  std::vector<int64_t> ids;
  for (char c : prompt) ids.push_back(static_cast<int64_t>(c) - 32);
  auto tok = torch::tensor(ids, torch::TensorOptions().dtype(torch::kLong)).to(device).unsqueeze(0);
  auto [logits, state] = lm->forward(tok);
  std::vector<torch::Tensor> generated;
  auto next = logits.select(1, -1).argmax(-1, /*keepdim=*/true);
  for (int t = 0; t < 400; ++t) {
    generated.push_back(next.squeeze(0));
    auto out = lm->forward(next, state);  // BUG(training-inference-without-no-grad): greedy generation after eval() with autograd on: each step's graph is chained to the previous one through the LSTM state, so memory grows with the generated length
    state = std::get<1>(out);
    next = std::get<0>(out).select(1, -1).argmax(-1, /*keepdim=*/true);
  }
  std::cout << prompt << decode(torch::cat(generated).cpu()) << std::endl;
}
