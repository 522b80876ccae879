// Beam search over a GRU decoder conditioned on an encoder summary (image captioning style).
#include <torch/torch.h>

#include <iostream>
#include <limits>
#include <vector>

struct CaptionDecoderImpl : torch::nn::Module {
  CaptionDecoderImpl(int64_t vocab, int64_t emb, int64_t hidden)
      : embed(register_module("embed", torch::nn::Embedding(vocab, emb))),
        gru(register_module("gru", torch::nn::GRU(torch::nn::GRUOptions(emb, hidden).batch_first(true)))),
        out(register_module("out", torch::nn::Linear(hidden, vocab))) {}
  // tokens: [B, 1], hidden: [1, B, H]; returns log-probs [B, V] and the new hidden state
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& tokens, const torch::Tensor& hidden) {
    auto res = gru->forward(embed(tokens), hidden);
    return {torch::log_softmax(out(std::get<0>(res).squeeze(1)), -1), std::get<1>(res)};
  }
  torch::nn::Embedding embed;
  torch::nn::GRU gru;
  torch::nn::Linear out;
};
TORCH_MODULE(CaptionDecoder);

struct Hypothesis {
  std::vector<int64_t> tokens;
  float score;
};

// image_state: [1, 1, H] on the decoder's device.
std::vector<Hypothesis> beam_search(CaptionDecoder& decoder, const torch::Tensor& image_state, int64_t beam,
                                    int64_t bos, int64_t eos, int max_len) {
  torch::NoGradGuard no_grad;
  auto hidden = image_state.repeat({1, beam, 1});
  auto tokens = torch::full({beam, 1}, bos, torch::kLong);
  auto beam_scores = torch::zeros({beam});  // BUG(device-factory-without-device): CPU scores; added to the device log-probs below
  beam_scores.slice(0, 1).fill_(-std::numeric_limits<float>::infinity());
  std::vector<std::vector<int64_t>> seqs(beam, std::vector<int64_t>{bos});
  std::vector<Hypothesis> done;
  for (int t = 0; t < max_len && static_cast<int64_t>(done.size()) < beam; ++t) {
    auto step = decoder->forward(tokens, hidden);  // BUG(device-unmoved-input): tokens is a CPU index tensor; the caller moved the decoder to device
    auto logp = step.first;
    const int64_t V = logp.size(1);
    auto total = (beam_scores.unsqueeze(1) + logp).view({-1});
    auto top = total.topk(beam);
    auto top_scores = std::get<0>(top);
    auto origin = std::get<1>(top).div(V, "floor");
    auto word = std::get<1>(top).remainder(V);
    auto origin_cpu = origin.cpu(), word_cpu = word.cpu(), scores_cpu = top_scores.cpu();
    std::vector<std::vector<int64_t>> next(beam);
    for (int64_t k = 0; k < beam; ++k) {
      next[k] = seqs[origin_cpu[k].item<int64_t>()];
      next[k].push_back(word_cpu[k].item<int64_t>());
      if (word_cpu[k].item<int64_t>() == eos) done.push_back({next[k], scores_cpu[k].item<float>()});
    }
    seqs = next;
    hidden = step.second.index_select(1, origin);
    tokens = word.unsqueeze(1);
    beam_scores = top_scores;
  }
  for (int64_t k = 0; k < beam && done.empty(); ++k) done.push_back({seqs[k], beam_scores[k].item<float>()});
  return done;
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  CaptionDecoder decoder(8000, 256, 512);
  torch::load(decoder, "caption_decoder.pt", device);
  decoder->to(device);
  decoder->eval();
  auto image_state = torch::randn({1, 1, 512}, torch::device(device));
  auto hyps = beam_search(decoder, image_state, 5, 1, 2, 30);
  for (const auto& h : hyps) std::cout << h.score << " (" << h.tokens.size() << " tokens)\n";
}
