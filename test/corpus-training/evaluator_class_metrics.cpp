// Text-classification baseline (embedding bag + MLP) with a small metrics logger and
// an Evaluator object used for the final test report.
#include <torch/torch.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

struct BagClassifierImpl : torch::nn::Module {
  BagClassifierImpl(int64_t vocab, int64_t dim, int64_t classes)
      : emb(register_module("emb", torch::nn::EmbeddingBag(torch::nn::EmbeddingBagOptions(vocab, dim).mode(torch::kMean)))),
        fc(register_module("fc", torch::nn::Linear(dim, classes))) {}
  torch::Tensor forward(const torch::Tensor& tokens, const torch::Tensor& offsets) {
    return fc->forward(emb->forward(tokens, offsets));
  }
  torch::nn::EmbeddingBag emb;
  torch::nn::Linear fc;
};
TORCH_MODULE(BagClassifier);

struct TextBatch {
  torch::Tensor tokens, offsets, labels;
};

static TextBatch random_batch(int64_t n, torch::Device device) {
  auto lengths = torch::randint(5, 40, {n}, torch::kLong);
  auto offsets = torch::cat({torch::zeros({1}, torch::kLong), lengths.cumsum(0).slice(0, 0, n - 1)});
  auto tokens = torch::randint(0, 20000, {lengths.sum().item<int64_t>()}, torch::kLong);
  return {tokens.to(device), offsets.to(device), torch::randint(0, 4, {n}, torch::kLong).to(device)};
}

class MetricLogger {
 public:
  void update(const std::string& name, const torch::Tensor& value) {
    sums_[name] += value.item<double>();  // BUG(device-sync-in-loop): called for every training step with a loss on the device: each call waits for the GPU to finish the step
    counts_[name] += 1;
  }
  void print(const std::string& prefix) const {
    std::printf("%s", prefix.c_str());
    for (const auto& [k, v] : sums_) std::printf("  %s=%.4f", k.c_str(), v / counts_.at(k));
    std::printf("\n");
  }
  void reset() { sums_.clear(); counts_.clear(); }

 private:
  std::map<std::string, double> sums_;
  std::map<std::string, int64_t> counts_;
};

class Evaluator {
 public:
  Evaluator(BagClassifier model, std::vector<TextBatch> batches) : model_(std::move(model)), batches_(std::move(batches)) {
    model_->eval();
  }
  double accuracy() {
    torch::Tensor correct, seen;
    for (const auto& b : batches_) {
      auto logits = model_->forward(b.tokens, b.offsets);  // BUG(training-inference-without-no-grad): the constructor put the model in eval(); this loop only reads predictions, yet runs with autograd recording every batch
      auto hits = logits.argmax(1).eq(b.labels).sum();
      correct = correct.defined() ? correct + hits : hits;
      seen = seen.defined() ? seen + b.labels.numel() : torch::full({}, b.labels.numel(), hits.options());
    }
    return correct.defined() ? correct.item<double>() / seen.item<double>() : 0.0;
  }

 private:
  BagClassifier model_;
  std::vector<TextBatch> batches_;
};

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  BagClassifier model(20000, 128, 4);
  model->to(device);
  torch::optim::Adagrad opt(model->parameters(), torch::optim::AdagradOptions(0.05));
  MetricLogger log;

  for (int epoch = 0; epoch < 5; ++epoch) {
    model->train();
    for (int step = 0; step < 300; ++step) {
      auto b = random_batch(64, device);
      auto logits = model->forward(b.tokens, b.offsets);
      auto loss = torch::cross_entropy_loss(logits, b.labels);
      opt.zero_grad();
      loss.backward();
      opt.step();
      log.update("loss", loss.detach());
    }
    log.print("epoch " + std::to_string(epoch));
    log.reset();
  }

  std::vector<TextBatch> test;
  for (int i = 0; i < 20; ++i) test.push_back(random_batch(256, device));
  Evaluator eval(model, std::move(test));
  std::printf("test accuracy %.3f\n", eval.accuracy());
}
