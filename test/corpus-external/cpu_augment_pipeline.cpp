// Host-side augmentation pipeline for a small CPU-only classifier (edge device build).
#include <torch/torch.h>

#include <cstdint>
#include <iostream>
#include <random>
#include <vector>

class NoisyShapes : public torch::data::datasets::Dataset<NoisyShapes> {
 public:
  explicit NoisyShapes(size_t n) : n_(n) {}
  torch::data::Example<> get(size_t index) override {
    std::vector<float> buf(3 * 32 * 32);
    std::mt19937 rng(static_cast<uint32_t>(index));
    std::normal_distribution<float> noise(0.f, 0.1f);
    for (auto& v : buf) v = noise(rng);
    auto img = torch::from_blob(buf.data(), {3, 32, 32}).clone();
    const int64_t label = static_cast<int64_t>(index % 4);
    img.slice(1, 8 * label, 8 * label + 8).add_(1.0);
    return {augment(img, rng), torch::tensor(label)};
  }
  torch::optional<size_t> size() const override { return n_; }

 private:
  static torch::Tensor augment(torch::Tensor img, std::mt19937& rng) {
    std::uniform_real_distribution<float> u(0.f, 1.f);
    if (u(rng) < 0.5f) img = img.flip({2});
    auto jitter = torch::tensor({0.9f + 0.2f * u(rng), 0.9f + 0.2f * u(rng), 0.9f + 0.2f * u(rng)}).view({3, 1, 1});
    img = img * jitter;
    auto erase = torch::ones({3, 32, 32});
    erase.slice(1, 10, 16).slice(2, 10, 16).zero_();
    return img * erase + 0.05 * torch::randn({3, 32, 32});
  }
  size_t n_;
};

torch::Tensor channel_stats(const torch::Tensor& images) {
  auto flat = images.transpose(0, 1).reshape({3, -1});
  return torch::stack({flat.mean(1), flat.std(1)});
}

int main() {
  auto ds = NoisyShapes(2048).map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader(std::move(ds), torch::data::DataLoaderOptions().batch_size(64).workers(2));
  auto net = torch::nn::Sequential(torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).padding(1)), torch::nn::ReLU(),
                                   torch::nn::AdaptiveAvgPool2d(1), torch::nn::Flatten(), torch::nn::Linear(16, 4));
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
  auto loss_sum = torch::zeros({1});
  int64_t batches = 0;
  for (int epoch = 0; epoch < 3; ++epoch) {
    for (auto& batch : *loader) {
      auto stats = channel_stats(batch.data);
      auto x = (batch.data - stats[0].view({1, 3, 1, 1})) / stats[1].view({1, 3, 1, 1});
      auto logits = net->forward(x);
      auto loss = torch::cross_entropy_loss(logits, batch.target);
      opt.zero_grad();
      loss.backward();
      opt.step();
      loss_sum += loss.detach();
      ++batches;
      auto pred = logits.argmax(1);
      auto acc = pred.accessor<int64_t, 1>();
      const int64_t* tgt = batch.target.data_ptr<int64_t>();
      int64_t hits = 0;
      for (int64_t i = 0; i < acc.size(0); ++i) hits += acc[i] == tgt[i];
      if (batches % 10 == 0) std::cout << "batch acc " << double(hits) / acc.size(0) << "\n";
    }
  }
  std::cout << "mean loss " << (loss_sum / batches).item<float>() << "\n";
}
