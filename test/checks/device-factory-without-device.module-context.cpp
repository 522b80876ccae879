#include <torch/torch.h>

// The forward() of a module that is moved to a device: its registered
// submodules and buffers are there, so a tensor it creates without a device
// meets them.

struct CausalAttentionImpl : torch::nn::Module {
  explicit CausalAttentionImpl(int64_t dim) {
    qkv = register_module("qkv", torch::nn::Linear(dim, 3 * dim));
    scale = register_buffer("scale", torch::ones({1}));
  }
  torch::Tensor forward(const torch::Tensor &x) {
    const int64_t T = x.size(1);
    auto parts = qkv(x).chunk(3, -1);
    auto scores = torch::matmul(parts[0], parts[1].transpose(-2, -1)) * scale;
    auto future = torch::triu(torch::ones({T, T}, torch::kBool), 1);
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: tensor created without a device is on the CPU, and meets a tensor on 'device' (which may be a GPU) in 'masked_fill' [device-factory-without-device]
    return scores.masked_fill(future, -1e9).softmax(-1);
  }
  torch::nn::Linear qkv{nullptr};
  torch::Tensor scale;
};
TORCH_MODULE(CausalAttention);

// Not findings: a mask made with the input's options, and a module that is
// never moved.
struct FollowsInputImpl : torch::nn::Module {
  FollowsInputImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(const torch::Tensor &x) {
    auto mask = torch::ones({4}, x.options());
    return fc(x) * mask;
  }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(FollowsInput);

struct NeverMovedImpl : torch::nn::Module {
  NeverMovedImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(const torch::Tensor &x) {
    return fc(x) + torch::ones({4});
  }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(NeverMoved);

void run() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  CausalAttention attention(8);
  attention->to(device);
  auto y = attention(torch::randn({2, 5, 8}).to(device));
  // CHECK-MESSAGES: :[[@LINE-1]]:12: note: 'forward' of 'attention' runs here, after the module is moved to 'device' (which may be a GPU) and called with 'torch::randn({2, 5, 8}).to(device)' on 'device' (which may be a GPU)
  FollowsInput follows;
  follows->to(device);
  auto z = follows(torch::randn({4}).to(device));
  NeverMoved cpu;
  auto w = cpu(torch::randn({4}));
}
