// A transformer encoder block with a learned positional table and a final norm.
#include <torch/torch.h>

#include <iostream>

struct EncoderBlockImpl : torch::nn::Module {
  EncoderBlockImpl(int64_t dim, int64_t heads, int64_t max_len)
      : attn(register_module("attn", torch::nn::MultiheadAttention(torch::nn::MultiheadAttentionOptions(dim, heads)))),
        ff(register_module("ff", torch::nn::Sequential(torch::nn::Linear(dim, 4 * dim), torch::nn::GELU(),
                                                       torch::nn::Linear(4 * dim, dim)))),
        norm1(register_module("norm1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim})))),
        scale(register_buffer("scale", torch::full({1}, 1.0 / std::sqrt(static_cast<double>(dim))))) {
    pos = torch::randn({max_len, 1, dim}) * 0.02;
    final_norm = torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim}));
    cls_token = register_parameter("cls_token", torch::zeros({1, 1, dim}));
  }

  torch::Tensor forward(torch::Tensor x) {  // x: [L, B, D]
    x = x + pos.narrow(0, 0, x.size(0));
    auto a = std::get<0>(attn->forward(x, x, x));
    x = norm1->forward(x + a * scale);
    x = x + ff->forward(x);
    return final_norm->forward(torch::cat({cls_token.expand({1, x.size(1), x.size(2)}), x}, 0));
  }

  torch::nn::MultiheadAttention attn;
  torch::nn::Sequential ff;
  torch::nn::LayerNorm norm1;
  torch::Tensor scale;
  torch::Tensor pos;  // BUG(device-unregistered-member): learned positions never registered: not moved, not trained, not saved
  torch::nn::LayerNorm final_norm{nullptr};  // BUG(device-unregistered-member): assigned without register_module
  torch::Tensor cls_token;
};
TORCH_MODULE(EncoderBlock);

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  EncoderBlock block(64, 4, 128);
  block->to(device);
  torch::optim::AdamW opt(block->parameters(), torch::optim::AdamWOptions(3e-4));
  auto x = torch::randn({16, 2, 64}, torch::TensorOptions().device(device));
  auto y = block->forward(x);
  auto loss = y.pow(2).mean();
  opt.zero_grad();
  loss.backward();
  opt.step();
  std::cout << y.sizes() << '\n';
}
