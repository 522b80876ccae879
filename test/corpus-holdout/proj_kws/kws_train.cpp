// Trains the keyword spotter on (synthetic) one-second clips, then runs the decision
// rule on a held-out batch.
#include "kws_features.h"
#include "kws_model.h"

#include <cstdio>

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  const MelConfig mel;
  const int64_t classes = 12;
  KwsNet net(mel.n_mels, 128, classes);
  net->to(device);
  torch::load(net, "kws_pretrained.pt");  // BUG(device-load-without-device): right after the move: the weights return to the device they were saved from (a GPU checkpoint fails on a CPU-only machine)
  torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(1e-3).weight_decay(1e-4));

  for (int step = 0; step < 8000; ++step) {
    auto wave = 0.1 * torch::randn({64, mel.sample_rate});  // clips as the reader returns them: host memory
    auto labels = torch::randint(0, classes, {64}, torch::kLong);
    auto feats = spec_augment(log_mel(wave.to(device), mel), 8);
    auto logits = net->forward(feats);
    auto loss = torch::cross_entropy_loss(logits, labels);  // BUG(device-unmoved-target): the clips were moved to the device, their labels were not
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 500 == 0) std::printf("step %d loss %.4f\n", step, loss.item<float>());
  }

  net->eval();
  torch::NoGradGuard no_grad;
  auto test_wave = 0.1 * torch::randn({16, mel.sample_rate});
  auto logits = net->forward(log_mel(test_wave.to(device), mel));
  const auto hits = decisions(logits, 0.8f);
  int64_t spotted = 0;
  for (int64_t h : hits) spotted += h >= 0 && h < classes - 2;
  std::printf("%lld of %zu clips contain a keyword\n", static_cast<long long>(spotted), hits.size());
  torch::save(net, "kws_net.pt");
}
