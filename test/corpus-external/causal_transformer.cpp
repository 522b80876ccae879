// A small decoder-only transformer (GPT-style) for character-level modelling.
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <limits>

struct SinusoidalPositionImpl : torch::nn::Module {
  SinusoidalPositionImpl(int64_t max_len, int64_t dim) {
    auto pos = torch::arange(max_len, torch::kFloat).unsqueeze(1);
    auto div = torch::exp(torch::arange(0, dim, 2, torch::kFloat) * (-std::log(10000.0) / dim));
    auto pe = torch::zeros({max_len, dim});
    pe.index_put_({torch::indexing::Slice(), torch::indexing::Slice(0, torch::indexing::None, 2)}, torch::sin(pos * div));
    pe.index_put_({torch::indexing::Slice(), torch::indexing::Slice(1, torch::indexing::None, 2)}, torch::cos(pos * div));
    table = register_buffer("table", pe);
  }
  torch::Tensor forward(const torch::Tensor& x) { return x + table.narrow(0, 0, x.size(1)); }
  torch::Tensor table;
};
TORCH_MODULE(SinusoidalPosition);

struct CausalSelfAttentionImpl : torch::nn::Module {
  CausalSelfAttentionImpl(int64_t dim, int64_t heads) : heads(heads), dim(dim) {
    qkv = register_module("qkv", torch::nn::Linear(dim, 3 * dim));
    proj = register_module("proj", torch::nn::Linear(dim, dim));
  }
  torch::Tensor forward(const torch::Tensor& x) {
    const int64_t B = x.size(0), T = x.size(1), hd = dim / heads;
    auto parts = qkv(x).chunk(3, -1);
    auto q = parts[0].view({B, T, heads, hd}).transpose(1, 2);
    auto k = parts[1].view({B, T, heads, hd}).transpose(1, 2);
    auto v = parts[2].view({B, T, heads, hd}).transpose(1, 2);
    auto att = torch::matmul(q, k.transpose(-2, -1)) / std::sqrt(static_cast<double>(hd));
    auto future = torch::triu(torch::ones({T, T}, torch::kBool), 1);  // BUG(device-factory-without-device): CPU mask for masked_fill on the device scores
    att = att.masked_fill(future, -std::numeric_limits<float>::infinity()).softmax(-1);
    auto y = torch::matmul(att, v).transpose(1, 2).contiguous().view({B, T, dim});
    return proj(y);
  }
  int64_t heads, dim;
  torch::nn::Linear qkv{nullptr}, proj{nullptr};
};
TORCH_MODULE(CausalSelfAttention);

struct BlockImpl : torch::nn::Module {
  BlockImpl(int64_t dim, int64_t heads)
      : ln1(register_module("ln1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim})))),
        attn(register_module("attn", CausalSelfAttention(dim, heads))),
        ln2(register_module("ln2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim})))),
        mlp(register_module("mlp", torch::nn::Sequential(torch::nn::Linear(dim, 4 * dim), torch::nn::GELU(),
                                                          torch::nn::Linear(4 * dim, dim)))) {}
  torch::Tensor forward(torch::Tensor x) {
    x = x + attn(ln1(x));
    return x + mlp->forward(ln2(x));
  }
  torch::nn::LayerNorm ln1;
  CausalSelfAttention attn;
  torch::nn::LayerNorm ln2;
  torch::nn::Sequential mlp;
};
TORCH_MODULE(Block);

struct MiniGPTImpl : torch::nn::Module {
  MiniGPTImpl(int64_t vocab, int64_t dim, int64_t heads, int64_t layers, int64_t ctx) {
    tok = register_module("tok", torch::nn::Embedding(vocab, dim));
    pos = register_module("pos", SinusoidalPosition(ctx, dim));
    blocks = register_module("blocks", torch::nn::ModuleList());
    for (int64_t i = 0; i < layers; ++i) blocks->push_back(Block(dim, heads));
    head = register_module("head", torch::nn::Linear(dim, vocab));
  }
  torch::Tensor forward(const torch::Tensor& idx) {
    auto x = pos(tok(idx));
    for (auto& b : *blocks) x = b->as<Block>()->forward(x);
    return head(x);
  }
  torch::nn::Embedding tok{nullptr};
  SinusoidalPosition pos{nullptr};
  torch::nn::ModuleList blocks{nullptr};
  torch::nn::Linear head{nullptr};
};
TORCH_MODULE(MiniGPT);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const int64_t vocab = 96, ctx = 128;
  MiniGPT model(vocab, 256, 8, 4, ctx);
  model->to(device);
  torch::optim::AdamW opt(model->parameters(), torch::optim::AdamWOptions(3e-4).weight_decay(0.1));
  auto text = torch::randint(0, vocab, {100000}, torch::TensorOptions().dtype(torch::kLong).device(device));
  for (int step = 0; step < 2000; ++step) {
    auto starts = torch::randint(0, text.size(0) - ctx - 1, {32}, torch::kLong);
    auto offs = torch::arange(ctx, torch::kLong);
    auto idx = (starts.unsqueeze(1) + offs).to(device);
    auto x = text.index({idx});
    auto y = text.index({idx + 1});
    auto logits = model->forward(x);
    auto loss = torch::cross_entropy_loss(logits.view({-1, vocab}), y.view({-1}));
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 200 == 0) std::cout << step << " " << loss.item<float>() << "\n";
  }
}
