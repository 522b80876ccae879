// Ways of calling .to()/.cuda(): only a dropped Tensor result is a bug; Module::to is in place.
#include <torch/torch.h>
#include <torch/script.h>

#include <vector>

struct Encoder : torch::nn::Module {
  Encoder() { proj = register_module("proj", torch::nn::Linear(32, 16)); }
  torch::Tensor forward(const torch::Tensor& x) { return proj->forward(x); }
  torch::nn::Linear proj{nullptr};
};

torch::Tensor prepare(torch::Tensor x, torch::Device device) {
  x.to(device);  // BUG(device-discarded-to): Tensor::to is not in place
  return x;
}

torch::Tensor prepare_fixed(torch::Tensor x, torch::Device device) {
  x = x.to(device);
  return x;
}

void stage(std::vector<torch::Tensor>& queue, const torch::Tensor& x, torch::Device device) {
  queue.push_back(x.to(device, /*non_blocking=*/true));
  (void)x.to(device);  // explicitly discarded: a deliberate prefetch/warm-up
}

int main(int argc, char** argv) {
  const bool use_cuda = torch::cuda::is_available();
  torch::Device device(use_cuda ? torch::kCUDA : torch::kCPU);

  auto encoder = std::make_shared<Encoder>();
  encoder->to(device);  // Module::to returns void and moves in place
  torch::nn::Linear head(16, 4);
  head->to(device, torch::kFloat);

  torch::jit::Module scripted = torch::jit::load(argv[1], device);
  scripted.to(device);  // jit::Module::to is in place as well

  auto x = torch::randn({4, 32});
  auto y = torch::randn({4, 32});
  if (use_cuda) {
    y.cuda();  // BUG(device-discarded-to): the CUDA copy is thrown away
    x = x.cuda();
  }
  auto moved = prepare(y, device);
  auto fixed = prepare_fixed(y, device);
  std::vector<torch::Tensor> queue;
  stage(queue, x, device);

  auto total = x.to(device).sum() + fixed.sum();
  auto out = head->forward(encoder->forward(x.to(device)));
  auto traced = scripted.forward({fixed}).toTensor();
  return static_cast<int>(total.item<float>() + out.sum().item<float>() + traced.sum().item<float>() +
                          moved.numel());
}
