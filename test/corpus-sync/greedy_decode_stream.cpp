// Character-level GRU language model: perplexity on held-out text, greedy generation streamed
// to a file as it is produced, and fixed-length sampling of token ids for a later report.
#include <torch/torch.h>

#include <fstream>
#include <iostream>
#include <string>
#include <vector>

const std::string kVocab = "\n abcdefghijklmnopqrstuvwxyz.,;'?!";
const int64_t kEos = 0;  // '\n' ends a generated line

struct CharLMImpl : torch::nn::Module {
  CharLMImpl()
      : embed(register_module("embed", torch::nn::Embedding(kVocab.size(), 64))),
        gru(register_module("gru", torch::nn::GRU(torch::nn::GRUOptions(64, 256).batch_first(true)))),
        head(register_module("head", torch::nn::Linear(256, kVocab.size()))) {}
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& ids, const torch::Tensor& h) {
    auto out = h.defined() ? gru->forward(embed(ids), h) : gru->forward(embed(ids));
    return {head(std::get<0>(out)), std::get<1>(out)};
  }
  torch::nn::Embedding embed;
  torch::nn::GRU gru;
  torch::nn::Linear head;
};
TORCH_MODULE(CharLM);

double perplexity(CharLM& lm, const std::vector<torch::Tensor>& chunks, const torch::Device& device) {
  torch::NoGradGuard no_grad;
  double nll_total = 0.0;
  int64_t tokens = 0;
  for (const auto& chunk : chunks) {
    auto ids = chunk.to(device);
    auto logits = lm->forward(ids.slice(1, 0, -1), {}).first;
    auto nll = torch::cross_entropy_loss(logits.reshape({-1, logits.size(-1)}),
                                         ids.slice(1, 1).reshape(-1), {}, torch::Reduction::Sum);
    nll_total += nll.item<double>();  // BUG(device-sync-in-loop): avoidable: summed on the host, only used after the loop
    tokens += ids.size(0) * (ids.size(1) - 1);
  }
  return std::exp(nll_total / static_cast<double>(tokens));
}

// A few teacher-forced steps on the held-out chunks; the per-step losses are plotted afterwards.
std::vector<torch::Tensor> adapt(CharLM& lm, const std::vector<torch::Tensor>& chunks, const torch::Device& device) {
  torch::optim::Adam opt(lm->parameters(), torch::optim::AdamOptions(1e-4));
  std::vector<torch::Tensor> history;
  for (const auto& chunk : chunks) {
    auto ids = chunk.to(device);
    auto logits = lm->forward(ids.slice(1, 0, -1), {}).first;
    auto loss = torch::cross_entropy_loss(logits.reshape({-1, logits.size(-1)}), ids.slice(1, 1).reshape(-1));
    opt.zero_grad();
    loss.backward();
    opt.step();
    history.push_back(loss.detach().cpu());  // BUG(device-sync-in-loop): avoidable: per-step copies kept for a plot after the loop
  }
  return history;
}

// Streams one line of text to `out`, character by character, until the model emits '\n'.
void stream_line(CharLM& lm, int64_t first, std::ostream& out, const torch::Device& device) {
  torch::NoGradGuard no_grad;
  auto next = torch::full({1, 1}, first, torch::TensorOptions().dtype(torch::kLong).device(device));
  torch::Tensor h;
  int n = 0;
  while (next.item<int64_t>() != kEos && n++ < 200) {  // SYNC(necessary): the loop condition: stop at end of line
    out << kVocab[next.item<int64_t>()] << std::flush;  // SYNC(necessary): the character is written out (and indexes the host vocabulary) as it is generated
    auto step = lm->forward(next, h);
    h = step.second;
    next = step.first.argmax(-1);
  }
  out << '\n';
}

// Samples `len` ids per prompt; the ids are only written to the report after sampling.
std::vector<int64_t> sample_ids(CharLM& lm, int64_t first, int len, const torch::Device& device) {
  torch::NoGradGuard no_grad;
  auto next = torch::full({1, 1}, first, torch::TensorOptions().dtype(torch::kLong).device(device));
  torch::Tensor h;
  std::vector<int64_t> ids;
  for (int t = 0; t < len; ++t) {
    auto step = lm->forward(next, h);
    h = step.second;
    next = torch::softmax(step.first.squeeze(1) / 0.8, -1).multinomial(1);
    ids.push_back(next.item<int64_t>());  // BUG(device-sync-in-loop): avoidable: next is fed back on the device; ids are only read after the loop
  }
  return ids;
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  CharLM lm;
  lm->to(device);
  std::vector<torch::Tensor> held_out;
  for (int i = 0; i < 20; ++i) held_out.push_back(torch::randint(0, kVocab.size(), {32, 65}));
  std::cout << "perplexity " << perplexity(lm, held_out, device) << '\n';
  auto history = adapt(lm, held_out, device);
  std::cout << "adaptation losses " << torch::stack(history) << '\n';

  lm->eval();
  std::ofstream stream("generated.txt");
  for (int64_t first = 2; first < 8; ++first) stream_line(lm, first, stream, device);

  std::ofstream report("samples.tsv");
  for (int64_t first = 2; first < 8; ++first) {
    auto ids = sample_ids(lm, first, 64, device);
    report << kVocab[first] << '\t';
    for (auto id : ids) report << kVocab[id];
    report << '\n';
  }
  return 0;
}
