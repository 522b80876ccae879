// Text classification with host-side collation: tokenisation, padding and masks are
// built on the CPU by helpers that only ever see CPU data; a CPU-only augmentation
// module (never moved) perturbs token embeddings' inputs. The finished batch is moved
// as a whole. No known bug in this file.
#include <torch/torch.h>

#include <cstdio>
#include <string>
#include <vector>

struct TextBatch {
  torch::Tensor ids, mask, labels;
  TextBatch to(torch::Device d) const { return {ids.to(d), mask.to(d), labels.to(d)}; }
};

static std::vector<int64_t> tokenize(const std::string& s) {
  std::vector<int64_t> ids{1};
  for (char c : s) ids.push_back(static_cast<unsigned char>(c) % 997 + 3);
  ids.push_back(2);
  return ids;
}

static TextBatch collate(const std::vector<std::string>& texts, const std::vector<int64_t>& labels) {
  size_t T = 0;
  for (const auto& t : texts) T = std::max(T, t.size() + 2);
  auto ids = torch::zeros({static_cast<int64_t>(texts.size()), static_cast<int64_t>(T)}, torch::kLong);
  auto mask = torch::zeros_like(ids, torch::kBool);
  for (size_t i = 0; i < texts.size(); ++i) {
    auto row = torch::tensor(tokenize(texts[i]), torch::kLong);
    ids[static_cast<int64_t>(i)].narrow(0, 0, row.size(0)).copy_(row);
    mask[static_cast<int64_t>(i)].narrow(0, 0, row.size(0)).fill_(true);
  }
  return {ids, mask, torch::tensor(labels, torch::kLong)};
}

struct TokenDropoutImpl : torch::nn::Module {  // host-side augmentation, runs before the move
  explicit TokenDropoutImpl(double p) : p_(p) {}
  torch::Tensor forward(const torch::Tensor& ids, const torch::Tensor& mask) {
    auto drop = (torch::rand(ids.sizes()) < p_) & mask;
    return torch::where(drop, torch::full_like(ids, 0), ids);
  }
  double p_;
};
TORCH_MODULE(TokenDropout);

struct BagOfTokensImpl : torch::nn::Module {
  BagOfTokensImpl() {
    emb = register_module("emb", torch::nn::Embedding(1000, 64));
    out = register_module("out", torch::nn::Linear(64, 2));
  }
  torch::Tensor forward(const torch::Tensor& ids, const torch::Tensor& mask) {
    auto m = mask.unsqueeze(-1).to(torch::kFloat);
    return out->forward((emb->forward(ids) * m).sum(1) / m.sum(1).clamp_min(1));
  }
  torch::nn::Embedding emb{nullptr};
  torch::nn::Linear out{nullptr};
};
TORCH_MODULE(BagOfTokens);

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  BagOfTokens model;
  model->to(device);
  TokenDropout augment(0.1);
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(3e-3));
  const std::vector<std::string> texts{"great product", "terrible support", "works as advertised", "broke in a week"};
  const std::vector<int64_t> labels{1, 0, 1, 0};

  for (int step = 0; step < 500; ++step) {
    TextBatch host = collate(texts, labels);
    host.ids = augment->forward(host.ids, host.mask);
    TextBatch b = host.to(device);
    auto loss = torch::cross_entropy_loss(model->forward(b.ids, b.mask), b.labels);
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 100 == 0) std::printf("step %d loss %.4f\n", step, loss.item<float>());
  }
}
