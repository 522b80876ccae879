// speech: evaluation entry point: confusion matrix and mean feature energy, on host copies.
#include <iostream>
#include <vector>

#include "asr_data.h"
#include "asr_model.h"

int main(int argc, char** argv) {
  const std::string ckpt = argc > 1 ? argv[1] : "/tmp/torch-tidy-corpus-projects/asr_keywords.pt";
  constexpr int64_t kKeywords = 4;
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  asr::KeywordNet model(kKeywords, 24);
  torch::load(model, ckpt, device);
  model->eval();
  torch::NoGradGuard no_grad;

  auto batch = asr::make_batch(16, kKeywords);
  auto waves = batch.waves.to(device);
  auto pred = model(waves).argmax(1).cpu();
  auto p = pred.accessor<int64_t, 1>();
  auto t = batch.labels.accessor<int64_t, 1>();
  std::vector<int64_t> confusion(kKeywords * kKeywords, 0);
  for (int64_t i = 0; i < p.size(0); ++i) ++confusion[t[i] * kKeywords + p[i]];

  auto feats = model->features(waves).contiguous().cpu();
  const float* f = feats.data_ptr<float>();
  double energy = 0;
  for (int64_t i = 0; i < feats.numel(); ++i) energy += f[i];
  std::cout << "diagonal " << confusion[0] + confusion[5] + confusion[10] + confusion[15] << "/" << p.size(0)
            << " mean log-mel " << energy / feats.numel() << "\n";
  return 0;
}
