// Helpers that build tensors: whether their result follows the caller's device.
#include <torch/torch.h>

#include <iostream>

torch::Tensor sinusoidal_positions(int64_t len, int64_t dim) {
  auto pos = torch::arange(len).unsqueeze(1).to(torch::kFloat);
  auto div = torch::exp(torch::arange(0, dim, 2).to(torch::kFloat) * (-std::log(10000.0) / dim));
  auto pe = torch::zeros({len, dim});  // BUG(device-factory-without-device): the returned CPU table is added to device embeddings in main
  pe.index_put_({torch::indexing::Slice(), torch::indexing::Slice(0, torch::indexing::None, 2)}, torch::sin(pos * div));
  pe.index_put_({torch::indexing::Slice(), torch::indexing::Slice(1, torch::indexing::None, 2)}, torch::cos(pos * div));
  return pe;
}

torch::Tensor sinusoidal_positions_like(const torch::Tensor& ref, int64_t len, int64_t dim) {
  return sinusoidal_positions(len, dim).to(ref.device());
}

torch::Tensor causal_mask(int64_t len, torch::Device device) {
  return torch::ones({len, len}, torch::TensorOptions().dtype(torch::kBool).device(device)).tril();
}

torch::Tensor padding_mask(const torch::Tensor& lengths, int64_t len) {
  return torch::arange(len, lengths.options()).unsqueeze(0) < lengths.unsqueeze(1);
}

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  const int64_t B = 4, L = 32, D = 64;
  torch::nn::Embedding emb(1000, D);
  emb->to(device);
  auto tokens = torch::randint(0, 1000, {B, L}, torch::TensorOptions().dtype(torch::kLong).device(device));
  auto lengths = torch::tensor({32, 20, 11, 5}, torch::TensorOptions().dtype(torch::kLong).device(device));

  auto x = emb->forward(tokens);
  auto h_bad = x + sinusoidal_positions(L, D);
  auto h = x + sinusoidal_positions_like(x, L, D);
  auto attn = h.matmul(h.transpose(1, 2)).masked_fill(causal_mask(L, device).logical_not(), -1e9);
  auto keep = padding_mask(lengths, L);
  auto pooled = (h * keep.unsqueeze(2)).sum(1);
  std::cout << h_bad.sizes() << attn.sizes() << pooled.sizes() << '\n';
}
