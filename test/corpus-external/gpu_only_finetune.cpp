// Quick fine-tuning script written on a workstation with a GPU; it never asks whether CUDA exists.
#include <torch/torch.h>

#include <iostream>
#include <string>
#include <vector>

struct HeadImpl : torch::nn::Module {
  HeadImpl(int64_t in, int64_t classes)
      : norm(register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({in})))),
        fc(register_module("fc", torch::nn::Linear(in, classes))) {}
  torch::Tensor forward(const torch::Tensor& feats) { return fc(norm(feats)); }
  torch::nn::LayerNorm norm;
  torch::nn::Linear fc;
};
TORCH_MODULE(Head);

struct FeatureBatch {
  torch::Tensor feats, labels;
};

Head build_head(int64_t in, int64_t classes, const std::string& init) {
  Head head(in, classes);
  if (!init.empty()) torch::load(head, init, torch::kCPU);
  head->to(torch::kCUDA);  // BUG(device-hardcoded): this file never checks torch::cuda::is_available(); fails on a machine without a GPU
  return head;
}

FeatureBatch synthetic_batch(int64_t n, int64_t in, int64_t classes) {
  auto feats = torch::randn({n, in}, torch::kCUDA);  // BUG(device-hardcoded): unconditional CUDA factory in a file with no availability check
  auto centers = torch::randn({classes, in}).cuda();
  auto labels = torch::cdist(feats, centers).argmin(1);
  return {feats + 0.1 * torch::randn_like(feats), labels};
}

double accuracy(Head& head, const FeatureBatch& batch) {
  torch::NoGradGuard no_grad;
  auto labels = batch.labels.cuda();  // BUG(device-hardcoded): unconditional .cuda() in a file with no availability check
  auto pred = head->forward(batch.feats).argmax(1);
  return pred.eq(labels).to(torch::kFloat).mean().item<double>();
}

int main() {
  const int64_t in = 768, classes = 5;
  Head head = build_head(in, classes, "");
  torch::optim::AdamW opt(head->parameters(), torch::optim::AdamWOptions(1e-3));
  for (int step = 0; step < 300; ++step) {
    auto batch = synthetic_batch(256, in, classes);
    auto loss = torch::cross_entropy_loss(head->forward(batch.feats), batch.labels);
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 50 == 0) std::cout << step << " loss " << loss.item<float>() << " acc " << accuracy(head, batch) << "\n";
  }
  torch::save(head, "head.pt");
}
