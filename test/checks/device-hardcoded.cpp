#include <torch/torch.h>

// This translation unit checks for CUDA (below), so only literal device
// indices are reported here; device-hardcoded.no-check.cpp covers the rest.

struct Net : torch::nn::Module {
  torch::nn::Linear fc{nullptr};
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
};

// Positive cases: a literal index written into a tensor operation.

void step(torch::Tensor x, std::shared_ptr<Net> model, bool half) {
  auto a = x.to(torch::Device(torch::kCUDA, 1));
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: device index 1 is hard-coded in a call of 'to': choose the device in one place (a variable, a config member, a function returning it) and pass that [device-hardcoded]
  auto b = x.to(torch::Device("cuda:1"));
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: device index 1 is hard-coded in a call of 'to': {{.*}} [device-hardcoded]
  auto c = x.to(torch::Device(torch::kCUDA, 0));
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: device index 0 is hard-coded in a call of 'to': {{.*}} [device-hardcoded]
  model->to(torch::Device(torch::kCUDA, 1));
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: device index 1 is hard-coded in a call of 'to': {{.*}} [device-hardcoded]
  auto d = x.to(torch::Device(torch::kCUDA, 2), torch::kHalf);
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: device index 2 is hard-coded in a call of 'to': {{.*}} [device-hardcoded]
  auto e = x.to("cuda:3");
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: device index 3 is hard-coded in a call of 'to': {{.*}} [device-hardcoded]
  auto f = x.to(half ? torch::Device(torch::kCUDA, 1) : torch::Device(torch::kCPU));
  // CHECK-MESSAGES: :[[@LINE-1]]:52: warning: device index 1 is hard-coded in a call of 'to': {{.*}} [device-hardcoded]
  auto g = x.to("xpu:1");
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: device index 1 is hard-coded in a call of 'to': {{.*}} [device-hardcoded]
}

void factories() {
  auto a = torch::zeros({2}, torch::TensorOptions().device(torch::kCUDA, 1));
  // CHECK-MESSAGES: :[[@LINE-1]]:74: warning: device index 1 is hard-coded in a call of 'zeros': {{.*}} [device-hardcoded]
  auto b = torch::ones({2}, torch::device(torch::Device(torch::kCUDA, 2)));
  // CHECK-MESSAGES: :[[@LINE-1]]:71: warning: device index 2 is hard-coded in a call of 'ones': {{.*}} [device-hardcoded]
  auto c = torch::rand({2}, torch::device_index(1));
  // CHECK-MESSAGES: :[[@LINE-1]]:49: warning: device index 1 is hard-coded in a call of 'rand': {{.*}} [device-hardcoded]
  auto d = torch::empty({2}, torch::dtype(torch::kFloat).device(torch::kCUDA, 0));
  // CHECK-MESSAGES: :[[@LINE-1]]:79: warning: device index 0 is hard-coded in a call of 'empty': {{.*}} [device-hardcoded]
  auto e = torch::full({2}, 1.0, torch::TensorOptions().device_index(0));
  // CHECK-MESSAGES: :[[@LINE-1]]:70: warning: device index 0 is hard-coded in a call of 'full': {{.*}} [device-hardcoded]
  auto lambda = [](torch::Tensor t) { return t.to(torch::Device(torch::kCUDA, 1)); };
  // CHECK-MESSAGES: :[[@LINE-1]]:79: warning: device index 1 is hard-coded in a call of 'to': {{.*}} [device-hardcoded]
}

// Negative cases: the places that choose the device, and indices that are
// not literals or go elsewhere.

struct Config {
  torch::Device device{torch::kCUDA, 0};
  torch::Device fallback = torch::Device("cuda:1");
};

const torch::Device kDevice(torch::kCUDA, 0);

struct Trainer {
  torch::Device device_;
  Trainer() : device_(torch::kCUDA, 1) {}
};

torch::Device chooseDevice() { return torch::Device(torch::kCUDA, 1); }

void runOn(torch::Device device) {}

void negatives(torch::Tensor x, int index, std::shared_ptr<Net> model) {
  torch::Device device(torch::kCUDA, 1);
  x = x.to(device);
  auto picked = torch::cuda::is_available() ? torch::Device(torch::kCUDA, 0)
                                            : torch::Device(torch::kCPU);
  auto options = torch::TensorOptions().device(torch::kCUDA, 1);
  auto a = x.to(torch::Device(torch::kCPU, 0));
  auto b = x.to(torch::Device(torch::kCUDA));
  auto c = x.to(torch::Device(torch::kCUDA, index));
  bool same = x.device() == torch::Device(torch::kCUDA, 0);
  runOn(torch::Device(torch::kCUDA, 1));
  std::cout << torch::Device(torch::kCUDA, 1) << std::endl;
  auto d = x.to(torch::Device("cuda"));
  auto e = x.cuda();
  model->to(torch::kCUDA);
  auto f = torch::zeros({2}, torch::kCUDA);
}

int main(int argc, char **argv) {
  auto x = torch::ones({2}).to(torch::Device(torch::kCUDA, 0));
  return 0;
}
