// Siamese face verification (same/different pairs) with batches passed around as tuples and
// unpacked with structured bindings.
#include <torch/torch.h>

#include <cstdio>
#include <tuple>

using PairBatch = std::tuple<torch::Tensor, torch::Tensor, torch::Tensor>;  // left, right, same?

static PairBatch next_pairs(int64_t b) {  // what the reader returns: host tensors
  return {torch::rand({b, 1, 64, 64}), torch::rand({b, 1, 64, 64}), torch::randint(0, 2, {b}).to(torch::kFloat)};
}

static PairBatch to_device(const PairBatch& p, torch::Device d) {
  const auto& [l, r, y] = p;
  return {l.to(d), r.to(d), y.to(d)};
}

struct EmbedNetImpl : torch::nn::Module {
  EmbedNetImpl() {
    net = register_module("net", torch::nn::Sequential(
        torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 32, 5).stride(2)), torch::nn::ReLU(),
        torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 64, 5).stride(2)), torch::nn::ReLU(),
        torch::nn::AdaptiveAvgPool2d(1), torch::nn::Flatten(), torch::nn::Linear(64, 64)));
  }
  torch::Tensor forward(const torch::Tensor& x) { return net->forward(x); }
  torch::nn::Sequential net{nullptr};
};
TORCH_MODULE(EmbedNet);

// Cosine similarity of the two embeddings, scaled, as a same/different logit.
static torch::Tensor pair_logit(const torch::Tensor& e1, const torch::Tensor& e2) {
  return 10.0 * torch::cosine_similarity(e1, e2, 1) - 5.0;
}

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  EmbedNet net;
  net->to(device);
  torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(1e-3));

  for (int step = 0; step < 3000; ++step) {
    auto [left, right, same] = next_pairs(64);
    left = left.to(device);
    right = right.to(device);
    auto logit = pair_logit(net->forward(left), net->forward(right));
    auto loss = torch::binary_cross_entropy_with_logits(logit, same);  // BUG(device-unmoved-target): left and right were moved, the same/different labels from next_pairs() were not
    opt.zero_grad();
    loss.backward();
    opt.step();

    if (step % 300 == 0) {
      torch::NoGradGuard no_grad;
      net->eval();
      auto [vl, vr, vy] = to_device(next_pairs(256), device);  // all three moved: fine
      auto pred = (pair_logit(net->forward(vl), net->forward(vr)) > 0).to(torch::kFloat);
      auto acc = (pred == vy).to(torch::kFloat).mean();
      std::printf("step %d loss %.4f val acc %.3f\n", step, loss.item<float>(), acc.item<float>());
      net->train();
    }
  }
}
