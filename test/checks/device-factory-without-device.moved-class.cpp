#include <torch/torch.h>

// A module class moved somewhere in the file: every method sees its
// registered members on the device, and forward() its inputs, whether or not
// the file shows a call of it.

struct DecoderImpl : torch::nn::Module {
  DecoderImpl() {
    embed = register_module("embed", torch::nn::Embedding(32, 8));
    out = register_module("out", torch::nn::Linear(8, 32));
  }
  torch::Tensor forward(const torch::Tensor &tokens) {
    auto bias = torch::zeros({32});
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: tensor created without a device is on the CPU, and meets a tensor on 'device' (which may be a GPU) in 'operator+' [device-factory-without-device]
    return out(embed(tokens)) + bias;
  }
  // Its own submodule fed a tensor it creates without a device.
  torch::Tensor start(int64_t batch) {
    auto tokens = torch::zeros({batch, 1}, torch::kLong);
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: tensor created without a device is on the CPU, and is the input of 'embed', which is moved to 'device' (which may be a GPU) with its module: its forward fails with 'Expected all tensors to be on the same device' [device-factory-without-device]
    // CHECK-MESSAGES: :[[@LINE+1]]:12: note: it is given to 'embed' here
    return embed(tokens);
    // CHECK-MESSAGES: :[[@LINE+58]]:3: note: 'Decoder' is moved to 'device' (which may be a GPU) here: its forward() sees its parameters and inputs there
  }
  torch::nn::Embedding embed{nullptr};
  torch::nn::Linear out{nullptr};
};
TORCH_MODULE(Decoder);

// Blocks held in a ModuleList move with the model that registers it.
struct BlockImpl : torch::nn::Module {
  BlockImpl() { fc = register_module("fc", torch::nn::Linear(8, 8)); }
  torch::Tensor forward(const torch::Tensor &x) {
    auto noise = torch::randn({8});
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: tensor created without a device is on the CPU{{.*}} [device-factory-without-device]
    return fc(x) + noise;
  }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Block);

struct StackImpl : torch::nn::Module {
  StackImpl() {
    blocks = register_module("blocks", torch::nn::ModuleList());
    for (int i = 0; i < 2; ++i)
      blocks->push_back(Block());
  }
  torch::nn::ModuleList blocks{nullptr};
};
TORCH_MODULE(Stack);

// Not findings: a registered buffer follows the module; a mask made with the
// input's options; a member the module's own to() moves; a module class that
// no one moves.
struct BufferedImpl : torch::nn::Module {
  BufferedImpl() {
    fc = register_module("fc", torch::nn::Linear(4, 4));
    scale = register_buffer("scale", torch::ones({4}));
  }
  torch::Tensor forward(const torch::Tensor &x) {
    auto mask = torch::ones({4}, x.options());
    auto zeros = torch::zeros_like(x);
    auto half = torch::tensor(0.5);
    return fc(x) * scale * mask + zeros * half;
  }
  torch::nn::Linear fc{nullptr};
  torch::Tensor scale;
};
TORCH_MODULE(Buffered);

struct IdleImpl : torch::nn::Module {
  IdleImpl() { fc = register_module("fc", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(const torch::Tensor &x) { return fc(x) + torch::ones({4}); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Idle);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Decoder decoder;
  decoder->to(device);
  Stack stack;
  stack->to(device);
  Buffered buffered;
  buffered->to(device);
  Idle idle;
  auto y = idle(torch::randn({4}));
}
