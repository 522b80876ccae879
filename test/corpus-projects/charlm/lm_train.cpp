// charlm: training entry point (Adam, truncated windows, gradient clipping).
#include <iostream>

#include "lm_data.h"
#include "lm_model.h"

int main(int argc, char** argv) {
  const std::string ckpt = argc > 1 ? argv[1] : "/tmp/torch-tidy-corpus-projects/lm_charlm.pt";
  torch::manual_seed(0);
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  const auto vocab = lm::build_vocab(lm::sample_text());
  const auto corpus = lm::encode(lm::sample_text(), vocab);
  lm::CharLM model(vocab.size(), 16, 32, 2);
  model->to(device);
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(3e-3));

  for (int step = 0; step < 5; ++step) {
    auto [x, y] = lm::random_windows(corpus, 8, 24);
    x = x.to(device);
    y = y.to(device);
    opt.zero_grad();
    auto [logits, state] = model->forward(x, model->initial_state(x.size(0)));
    auto loss = torch::cross_entropy_loss(logits.reshape({-1, vocab.size()}), y.reshape(-1));
    loss.backward();
    torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
    opt.step();
    std::cout << "step " << step << " loss " << loss.item<float>() << "\n";
  }
  torch::save(model, ckpt);
  return 0;
}
