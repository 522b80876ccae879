// charlm: evaluation entry point: perplexity on the text and a greedy continuation of a prompt.
#include <iostream>

#include "lm_data.h"
#include "lm_model.h"
#include "lm_sample.h"

int main(int argc, char** argv) {
  const std::string ckpt = argc > 1 ? argv[1] : "/tmp/torch-tidy-corpus-projects/lm_charlm.pt";
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  const auto vocab = lm::build_vocab(lm::sample_text());
  lm::CharLM model(vocab.size(), 16, 32, 2);
  model->to(device);
  torch::load(model, ckpt, device);

  std::cout << "perplexity " << lm::perplexity(model, lm::encode(lm::sample_text(), vocab), 24, device) << "\n";
  std::cout << lm::generate(model, vocab, "the ", 20, device) << "\n";
  return 0;
}
