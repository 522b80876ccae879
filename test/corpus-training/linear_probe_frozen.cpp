// Linear probe on top of a frozen, pretrained feature extractor: the backbone is
// loaded, frozen, and run in eval mode; only the linear head is trained.
#include <torch/torch.h>

#include <cstdio>

struct BackboneImpl : torch::nn::Module {
  BackboneImpl() {
    layers = register_module("layers", torch::nn::Sequential(
        torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 64, 7).stride(2).padding(3)), torch::nn::BatchNorm2d(64),
        torch::nn::ReLU(), torch::nn::MaxPool2d(torch::nn::MaxPool2dOptions(3).stride(2).padding(1)),
        torch::nn::Conv2d(torch::nn::Conv2dOptions(64, 256, 3).stride(2).padding(1)), torch::nn::BatchNorm2d(256),
        torch::nn::ReLU(), torch::nn::AdaptiveAvgPool2d(1), torch::nn::Flatten()));
  }
  torch::Tensor forward(const torch::Tensor& x) { return layers->forward(x); }
  torch::nn::Sequential layers{nullptr};
};
TORCH_MODULE(Backbone);

static float batch_accuracy(const torch::Tensor& logits, const torch::Tensor& labels) {
  return logits.argmax(1).eq(labels).to(torch::kFloat).mean().item<float>();  // BUG(device-sync-in-loop): the probe's training loop calls this for every batch: one GPU->host round trip per step
}

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  Backbone backbone;
  torch::load(backbone, "backbone_pretrained.pt", device);
  backbone->to(device);
  backbone->eval();
  for (auto& p : backbone->parameters()) p.requires_grad_(false);  // frozen: no graph is recorded through it

  const auto opts = torch::TensorOptions().device(device);
  auto images = torch::rand({8192, 3, 96, 96}, opts);
  auto labels = torch::randint(0, 50, {8192}, opts.dtype(torch::kLong));

  // Extract features once; the frozen backbone records nothing.
  std::vector<torch::Tensor> feats;
  for (int64_t i = 0; i < images.size(0); i += 256) feats.push_back(backbone->forward(images.narrow(0, i, 256)));
  auto features = torch::cat(feats);

  torch::nn::Linear head(256, 50);
  head->to(device);
  torch::optim::SGD opt(head->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9).weight_decay(1e-4));
  for (int epoch = 0; epoch < 30; ++epoch) {
    auto perm = torch::randperm(features.size(0), opts.dtype(torch::kLong));
    double acc_sum = 0;
    int64_t steps = 0;
    for (int64_t i = 0; i < perm.size(0); i += 512, ++steps) {
      auto idx = perm.narrow(0, i, std::min<int64_t>(512, perm.size(0) - i));
      auto logits = head->forward(features.index_select(0, idx));
      auto y = labels.index_select(0, idx);
      auto loss = torch::cross_entropy_loss(logits, y);
      opt.zero_grad();
      loss.backward();
      opt.step();
      acc_sum += batch_accuracy(logits, y);
    }
    std::printf("epoch %d  train acc %.3f\n", epoch, acc_sum / steps);
  }
  torch::save(head, "linear_probe.pt");
}
