// A GPT-style decoder block stack for a byte-level language model, with rotary
// position embeddings whose inverse frequencies are a registered buffer.
#include <torch/torch.h>

#include <cmath>
#include <cstdio>
#include <limits>

struct RotaryImpl : torch::nn::Module {
  explicit RotaryImpl(int64_t head_dim) {
    inv_freq = register_buffer("inv_freq", 1.0 / torch::pow(10000.0, torch::arange(0, head_dim, 2).to(torch::kFloat) / head_dim));
  }
  torch::Tensor forward(const torch::Tensor& x) {  // x: [B, H, T, D]
    auto t = torch::arange(x.size(2), inv_freq.options());  // on the buffer's device
    auto freqs = torch::outer(t, inv_freq);
    auto cos = torch::cat({freqs.cos(), freqs.cos()}, -1), sin = torch::cat({freqs.sin(), freqs.sin()}, -1);
    auto x1 = x.narrow(-1, 0, x.size(-1) / 2), x2 = x.narrow(-1, x.size(-1) / 2, x.size(-1) / 2);
    return x * cos + torch::cat({-x2, x1}, -1) * sin;
  }
  torch::Tensor inv_freq;
};
TORCH_MODULE(Rotary);

struct DecoderBlockImpl : torch::nn::Module {
  DecoderBlockImpl(int64_t dim, int64_t heads) : heads_(heads) {
    ln1 = register_module("ln1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim})));
    ln2 = register_module("ln2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim})));
    qkv = register_module("qkv", torch::nn::Linear(dim, 3 * dim));
    proj = register_module("proj", torch::nn::Linear(dim, dim));
    mlp = register_module("mlp", torch::nn::Sequential(torch::nn::Linear(dim, 4 * dim), torch::nn::GELU(), torch::nn::Linear(4 * dim, dim)));
    rope = register_module("rope", Rotary(dim / heads));
  }
  torch::Tensor forward(const torch::Tensor& x) {
    const int64_t B = x.size(0), T = x.size(1), C = x.size(2), D = C / heads_;
    auto parts = qkv->forward(ln1->forward(x)).view({B, T, 3, heads_, D}).permute({2, 0, 3, 1, 4});
    auto q = rope->forward(parts[0]), k = rope->forward(parts[1]), v = parts[2];
    auto scores = q.matmul(k.transpose(-2, -1)) / std::sqrt(static_cast<double>(D));
    auto future = torch::ones({T, T}).triu(1).to(torch::kBool);  // BUG(device-factory-without-device): a CPU mask; main() moves the model, so scores are on the device when masked_fill meets it
    scores = scores.masked_fill(future, -std::numeric_limits<float>::infinity());
    auto att = torch::softmax(scores, -1).matmul(v).transpose(1, 2).reshape({B, T, C});
    auto h = x + proj->forward(att);
    return h + mlp->forward(ln2->forward(h));
  }
  int64_t heads_;
  torch::nn::LayerNorm ln1{nullptr}, ln2{nullptr};
  torch::nn::Linear qkv{nullptr}, proj{nullptr};
  torch::nn::Sequential mlp{nullptr};
  Rotary rope{nullptr};
};
TORCH_MODULE(DecoderBlock);

struct ByteLMImpl : torch::nn::Module {
  ByteLMImpl(int64_t dim, int64_t layers, int64_t heads) {
    embed = register_module("embed", torch::nn::Embedding(256, dim));
    blocks = register_module("blocks", torch::nn::ModuleList());
    for (int64_t i = 0; i < layers; ++i) blocks->push_back(DecoderBlock(dim, heads));
    head = register_module("head", torch::nn::Linear(dim, 256));
  }
  torch::Tensor forward(const torch::Tensor& tokens) {
    auto h = embed->forward(tokens);
    for (const auto& b : *blocks) h = b->as<DecoderBlockImpl>()->forward(h);
    return head->forward(h);
  }
  torch::nn::Embedding embed{nullptr};
  torch::nn::ModuleList blocks{nullptr};
  torch::nn::Linear head{nullptr};
};
TORCH_MODULE(ByteLM);

int main() {
  const auto device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  ByteLM lm(256, 4, 8);
  lm->to(device);
  torch::optim::AdamW opt(lm->parameters(), torch::optim::AdamWOptions(3e-4).weight_decay(0.1));
  const auto long_opts = torch::TensorOptions().dtype(torch::kLong).device(device);
  for (int step = 0; step < 2000; ++step) {
    auto tokens = torch::randint(0, 256, {16, 129}, long_opts);
    auto logits = lm->forward(tokens.slice(1, 0, 128));
    auto loss = torch::cross_entropy_loss(logits.reshape({-1, 256}), tokens.slice(1, 1).reshape({-1}));
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 100 == 0) std::printf("step %d loss %.3f\n", step, loss.item<float>());
  }
}
