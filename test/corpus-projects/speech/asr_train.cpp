// speech: training entry point (Adam; augmentation on the CPU, then one move per batch).
#include <iostream>

#include "asr_data.h"
#include "asr_model.h"

int main(int argc, char** argv) {
  const std::string ckpt = argc > 1 ? argv[1] : "/tmp/torch-tidy-corpus-projects/asr_keywords.pt";
  constexpr int64_t kKeywords = 4;
  torch::manual_seed(0);
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  asr::KeywordNet model(kKeywords, 24);
  model->to(device);
  asr::WaveAugment augment(0.8, 1.2);
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-2));

  for (int step = 0; step < 5; ++step) {
    auto batch = asr::make_batch(8, kKeywords);
    batch.waves = augment(batch.waves);
    auto [waves, labels] = asr::to_device(batch, device);
    opt.zero_grad();
    auto logits = model(waves);
    auto loss = torch::nn::functional::cross_entropy(logits, labels);
    loss.backward();
    opt.step();
    auto correct = logits.argmax(1).eq(batch.labels).sum();
    std::cout << "step " << step << " loss " << loss.item<float>() << " correct " << correct.item<int64_t>() << "\n";
  }
  torch::save(model, ckpt);
  return 0;
}
