// Beam-search decoding for a small GRU encoder-decoder: the hypotheses are host-side
// bookkeeping (token lists, finished flags) updated from the top-k of every step.
#include <torch/torch.h>

#include <iostream>
#include <vector>

const int64_t kBos = 1, kEos = 2, kVocab = 500;

struct Seq2SeqImpl : torch::nn::Module {
  Seq2SeqImpl()
      : src_embed(register_module("src_embed", torch::nn::Embedding(kVocab, 128))),
        tgt_embed(register_module("tgt_embed", torch::nn::Embedding(kVocab, 128))),
        enc(register_module("enc", torch::nn::GRU(torch::nn::GRUOptions(128, 256).batch_first(true)))),
        dec(register_module("dec", torch::nn::GRU(torch::nn::GRUOptions(128, 256).batch_first(true)))),
        out(register_module("out", torch::nn::Linear(256, kVocab))) {}
  torch::Tensor encode(const torch::Tensor& src) { return std::get<1>(enc->forward(src_embed(src))); }
  std::pair<torch::Tensor, torch::Tensor> step(const torch::Tensor& tok, const torch::Tensor& h) {
    auto r = dec->forward(tgt_embed(tok), h);
    return {torch::log_softmax(out(std::get<0>(r)).squeeze(1), -1), std::get<1>(r)};
  }
  torch::nn::Embedding src_embed, tgt_embed;
  torch::nn::GRU enc, dec;
  torch::nn::Linear out;
};
TORCH_MODULE(Seq2Seq);

struct Hyp {
  std::vector<int64_t> tokens{kBos};
  float score = 0.f;
  bool done = false;
};

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Seq2Seq model;
  model->to(device);
  model->eval();
  torch::NoGradGuard no_grad;
  const int beam = 4, max_len = 40;
  auto long_opts = torch::TensorOptions().dtype(torch::kLong).device(device);

  std::vector<torch::Tensor> sources;
  for (int i = 0; i < 8; ++i) sources.push_back(torch::randint(3, kVocab, {1, 12 + i}));

  for (const auto& src : sources) {
    auto h = model->encode(src.to(device)).repeat({1, beam, 1});
    std::vector<Hyp> hyps(beam);
    auto beam_scores = torch::full({beam}, -1e9, torch::TensorOptions().device(device));
    beam_scores[0] = 0;  // only one live hypothesis at the start
    for (int t = 0; t < max_len; ++t) {
      std::vector<int64_t> last;
      for (const auto& hyp : hyps) last.push_back(hyp.tokens.back());
      auto tok = torch::tensor(last, long_opts).unsqueeze(1);
      auto [logp, h_next] = model->step(tok, h);
      auto cand = (beam_scores.unsqueeze(1) + logp).view(-1);
      auto top = cand.topk(beam);
      auto top_idx = std::get<1>(top).cpu();  // SYNC(necessary): the host rebuilds the beams (parent, token) in this step
      auto top_val = std::get<0>(top).to(torch::kCPU);  // SYNC(necessary): the new scores and finished flags are host state read by the next step
      std::vector<Hyp> next(beam);
      std::vector<int64_t> parents;
      for (int k = 0; k < beam; ++k) {
        int64_t flat = top_idx[k].item<int64_t>();  // SYNC(cpu): indexes the host copy made above
        int64_t parent = flat / kVocab, token = flat % kVocab;
        next[k] = hyps[parent];
        if (!next[k].done) next[k].tokens.push_back(token);
        next[k].score = top_val[k].item<float>();  // SYNC(cpu): reads the host copy made above
        next[k].done = next[k].done || token == kEos;
        parents.push_back(parent);
      }
      hyps = next;
      h = h_next.index_select(1, torch::tensor(parents, long_opts));
      beam_scores = std::get<0>(top);
      bool all_done = true;
      for (const auto& hyp : hyps) all_done = all_done && hyp.done;
      if (all_done) break;
    }
    // Length-normalised choice of the best hypothesis, computed on the device.
    std::vector<float> lengths;
    for (const auto& hyp : hyps) lengths.push_back(static_cast<float>(hyp.tokens.size()));
    auto normalised = beam_scores / torch::tensor(lengths).to(device).pow(0.6);
    const auto& best = hyps[normalised.argmax().item<int64_t>()];  // SYNC(necessary): indexes the host vector of hypotheses
    std::cout << "best normalised score " << normalised.max() << '\n';  // BUG(device-sync-in-loop): avoidable: logging a device scalar per sentence (cheap right after the argmax read above, but a second round trip the host does not need)
    for (auto id : best.tokens) std::cout << id << ' ';
    std::cout << '\n';
  }
  return 0;
}
