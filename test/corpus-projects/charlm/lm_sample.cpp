// charlm: greedy decoding one character at a time, and perplexity on random windows.
#include "lm_sample.h"

#include <cmath>

namespace lm {

namespace {

// Greedy pick, on the host: the distribution has a few dozen entries.
int64_t host_argmax(const torch::Tensor& probs) {
  auto p = probs.accessor<float, 1>();  // BUG(device-host-access): generate() passes the softmax of logits from the model lm_generate.cpp moved to the device
  int64_t best = 0;
  for (int64_t i = 1; i < p.size(0); ++i)
    if (p[i] > p[best]) best = i;
  return best;
}

}  // namespace

std::string generate(CharLM& model, const Vocab& vocab, const std::string& prompt, int64_t steps, torch::Device device) {
  torch::NoGradGuard no_grad;
  model->eval();
  auto ids = encode(prompt, vocab).unsqueeze(0);
  torch::Tensor logits;
  State state;
  std::tie(logits, state) = model->forward(ids, model->initial_state(1));  // BUG(device-unmoved-input): ids come from encode() (lm_data.cpp) on the CPU; the caller (lm_generate.cpp) moved the model to the device
  std::string text = prompt;
  for (int64_t i = 0; i < steps; ++i) {
    auto probs = torch::softmax(logits[0][-1], -1);
    const int64_t next = host_argmax(probs);
    text += vocab.at(next);
    auto step = torch::full({1, 1}, next, torch::TensorOptions().dtype(torch::kLong).device(device));
    std::tie(logits, state) = model->forward(step, state);
  }
  return text;
}

double perplexity(CharLM& model, const torch::Tensor& corpus, int64_t len, torch::Device device) {
  torch::NoGradGuard no_grad;
  model->eval();
  auto [x, y] = random_windows(corpus, 4, len);
  x = x.to(device);
  y = y.to(device);
  auto [logits, state] = model->forward(x, model->initial_state(x.size(0)));
  auto nll = torch::cross_entropy_loss(logits.reshape({-1, logits.size(-1)}), y.reshape(-1));
  return std::exp(nll.item<double>());
}

}  // namespace lm
