#include <torch/torch.h>

// This translation unit never asks whether CUDA is available: every
// unconditional CUDA device in a tensor operation is reported, once per
// function.

struct Net : torch::nn::Module {
  torch::nn::Linear fc{nullptr};
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
};

// Positive cases.

void train(std::shared_ptr<Net> net, torch::Tensor x) {
  net->to(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'torch::kCUDA' requires a CUDA device, but this translation unit never checks torch::cuda::is_available() or device_count(): it fails on a machine without a GPU [device-hardcoded]
  x = x.cuda(); // the same function: reported once
}

torch::Tensor toGpu(torch::Tensor x) {
  return x.cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'cuda()' requires a CUDA device, {{.*}} [device-hardcoded]
}

torch::Tensor factory() {
  return torch::zeros({2}, torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'torch::kCUDA' requires a CUDA device, {{.*}} [device-hardcoded]
}

torch::Tensor fromString(torch::Tensor x) {
  return x.to("cuda");
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: '"cuda"' requires a CUDA device, {{.*}} [device-hardcoded]
}

torch::Tensor options() {
  return torch::randn({2}, torch::TensorOptions().device(torch::kCUDA));
  // CHECK-MESSAGES: :[[@LINE-1]]:58: warning: 'torch::kCUDA' requires a CUDA device, {{.*}} [device-hardcoded]
}

void moveModule(std::shared_ptr<Net> model) {
  model->to(torch::Device(torch::kCUDA));
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'torch::kCUDA' requires a CUDA device, {{.*}} [device-hardcoded]
}

torch::Tensor chained() {
  return torch::ones({2}, torch::device(torch::kCUDA).dtype(torch::kFloat));
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: 'torch::kCUDA' requires a CUDA device, {{.*}} [device-hardcoded]
}

torch::Tensor indexed(torch::Tensor x) {
  auto y = x.to(torch::Device("cuda:0"));
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: device index 0 is hard-coded in a call of 'to': {{.*}} [device-hardcoded]
  // One finding for one device: the unconditional CUDA is not reported again.
  return y.cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'cuda()' requires a CUDA device, {{.*}} [device-hardcoded]
}

struct Runner {
  torch::Tensor run(torch::Tensor t) { return t.to(torch::kCUDA, torch::kHalf); }
  // CHECK-MESSAGES: :[[@LINE-1]]:52: warning: 'torch::kCUDA' requires a CUDA device, {{.*}} [device-hardcoded]
};

void lambdas(std::vector<torch::Tensor> &batch) {
  auto move = [](torch::Tensor t) { return t.cuda(); };
  // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: 'cuda()' requires a CUDA device, {{.*}} [device-hardcoded]
}

torch::Tensor nonBlocking(torch::Tensor x) {
  return x.to(torch::kCUDA, /*non_blocking=*/true);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'torch::kCUDA' requires a CUDA device, {{.*}} [device-hardcoded]
}

// Negative cases: conditional uses, the places that choose the device, and
// uses that are not tensor operations.

struct Config {
  torch::Device device{torch::kCUDA};
};

torch::Device pickDevice() { return torch::Device(torch::kCUDA); }

void runOn(torch::Device device) {}

void negatives(torch::Tensor x, bool useGpu, std::shared_ptr<Net> net) {
  if (useGpu)
    x = x.cuda();
  auto y = x.to(useGpu ? torch::kCUDA : torch::kCPU);
  torch::Device device(torch::kCUDA);
  auto type = useGpu ? torch::kCUDA : torch::kCPU;
  bool onGpu = x.device().type() == torch::kCUDA || x.is_cuda();
  switch (x.device().type()) {
  case torch::kCUDA:
    break;
  default:
    break;
  }
  runOn(torch::kCUDA);
  std::cout << torch::Device(torch::kCUDA) << std::endl;
  auto z = x.to(torch::kCPU).cpu();
  auto w = x.to(torch::Device("cpu"));
  useGpu && (net->to(torch::kCUDA), true);
}

int main(int argc, char **argv) {
  auto x = torch::ones({2}).cuda();
  return 0;
}
