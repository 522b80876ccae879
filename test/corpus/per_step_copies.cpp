// Copies inside the training loop: per-batch data must move each step; constants need not.
#include <torch/torch.h>

#include <iostream>

torch::Tensor make_causal_mask(int64_t n) {
  return torch::ones({n, n}).tril().to(torch::kBool);
}

struct TinyAttentionImpl : torch::nn::Module {
  explicit TinyAttentionImpl(int64_t d) : qkv(register_module("qkv", torch::nn::Linear(d, 3 * d))) {}
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& mask) {
    auto parts = qkv->forward(x).chunk(3, -1);
    auto scores = parts[0].matmul(parts[1].transpose(-2, -1)) / std::sqrt(static_cast<double>(x.size(-1)));
    scores = scores.masked_fill(mask.logical_not(), -1e9);
    return torch::softmax(scores, -1).matmul(parts[2]);
  }
  torch::nn::Linear qkv;
};
TORCH_MODULE(TinyAttention);

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  const int64_t T = 16, D = 32;
  TinyAttention attn(D);
  attn->to(device);
  torch::optim::Adam opt(attn->parameters(), 1e-3);

  auto mask = make_causal_mask(T);
  auto class_weights = torch::tensor({1.0, 2.0, 0.5, 1.0});
  auto mask_on_device = mask.to(device);  // hoisted: one copy
  auto noise_scale = torch::full({1}, 0.1);

  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({4, T, D}).to(device);  // new data every step: must move
    auto m = mask.to(device);  // BUG(device-loop-invariant-to): mask never changes; a host->device copy every step
    auto out = attn->forward(x, m) + attn->forward(x, mask_on_device);
    auto w = class_weights.to(device);  // BUG(device-loop-invariant-to): constant weights copied every step
    auto logits = out.mean(1).narrow(1, 0, 4);
    auto target = torch::randint(0, 4, {4}).to(device);
    auto loss = torch::nll_loss(torch::log_softmax(logits, 1), target, w);
    noise_scale = noise_scale * 0.99;  // changes every step ...
    auto eps = noise_scale.to(device);  // ... so moving it each step is needed
    loss = loss + eps.sum();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  std::cout << "done\n";
}
