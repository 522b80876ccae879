#include <torch/torch.h>

// Positive cases: strings LibTorch's device parser rejects or misreads.

void upperCase(torch::Tensor x) {
  auto a = torch::Device("CPU");
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: device string "CPU" is rejected by LibTorch: device types are lower-case; torch::Device throws at run time; use "cpu" [device-invalid-string]
  // CHECK-FIXES: {{^}}  auto a = torch::Device("cpu");{{$}}
  auto b = x.to("CUDA");
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: device string "CUDA" is rejected by LibTorch: device types are lower-case; torch::Device throws at run time; use "cuda" [device-invalid-string]
  // CHECK-FIXES: {{^}}  auto b = x.to("cuda");{{$}}
  torch::Device c("Cuda:1");
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: device string "Cuda:1" is rejected by LibTorch: device types are lower-case; torch::Device throws at run time; use "cuda:1" [device-invalid-string]
  // CHECK-FIXES: {{^}}  torch::Device c("cuda:1");{{$}}
}

void missingColon(torch::Tensor x) {
  auto y = x.to(torch::Device("cuda0"));
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: device string "cuda0" is rejected by LibTorch: the index must follow a ':'; torch::Device throws at run time; use "cuda:0" [device-invalid-string]
  // CHECK-FIXES: {{^}}  auto y = x.to(torch::Device("cuda:0"));{{$}}
}

void gpu(torch::Tensor x) {
  auto y = x.to("GPU");
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: device string "GPU" is rejected by LibTorch: LibTorch has no 'gpu' device type (use "cuda"); torch::Device throws at run time [device-invalid-string]
  // CHECK-FIXES: {{^}}  auto y = x.to("GPU");{{$}}
}

void badIndex() {
  auto opts = torch::TensorOptions().device("cuda:-1");
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: device string "cuda:-1" is rejected by LibTorch: an index in a device string cannot be negative; torch::Device throws at run time [device-invalid-string]
  // CHECK-FIXES: {{^}}  auto opts = torch::TensorOptions().device("cuda:-1");{{$}}
  auto empty = torch::Device("cuda:");
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: device string "cuda:" is rejected by LibTorch: ':' is not followed by an index; torch::Device throws at run time [device-invalid-string]
  auto zero = torch::Device("cuda:01");
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: device string "cuda:01" is rejected by LibTorch: an index has no leading zeros; torch::Device throws at run time; use "cuda:1" [device-invalid-string]
  // CHECK-FIXES: {{^}}  auto zero = torch::Device("cuda:1");{{$}}
  auto space = torch::Device("cuda: 1");
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: device string "cuda: 1" is rejected by LibTorch: it contains white space; torch::Device throws at run time; use "cuda:1" [device-invalid-string]
  // CHECK-FIXES: {{^}}  auto space = torch::Device("cuda:1");{{$}}
  auto big = torch::Device("cuda:300");
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: device string "cuda:300" is misread by LibTorch: the index 300 does not fit LibTorch's 8-bit DeviceIndex and is read as 44 [device-invalid-string]
}

void factories() {
  auto a = torch::zeros({2}, "Cpu");
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: device string "Cpu" is rejected by LibTorch: device types are lower-case{{.*}}; use "cpu" [device-invalid-string]
  // CHECK-FIXES: {{^}}  auto a = torch::zeros({2}, "cpu");{{$}}
  auto b = torch::ones({2}, torch::TensorOptions("metal"));
  // CHECK-MESSAGES: :[[@LINE-1]]:50: warning: device string "metal" is rejected by LibTorch: 'metal' is not a LibTorch device type; torch::Device throws at run time [device-invalid-string]
  auto c = torch::Device(std::string("MPS"));
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: device string "MPS" is rejected by LibTorch: device types are lower-case{{.*}}; use "mps" [device-invalid-string]
  // CHECK-FIXES: {{^}}  auto c = torch::Device(std::string("mps"));{{$}}
  auto d = torch::Device("");
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: device string "" is rejected by LibTorch: it is empty; torch::Device throws at run time [device-invalid-string]
}

struct Net : torch::nn::Module {
  torch::nn::Linear fc{nullptr};
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  void place() {
    to(torch::Device("cuda 0"));
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: device string "cuda 0" is rejected by LibTorch: it contains white space; torch::Device throws at run time; use "cuda:0" [device-invalid-string]
    // CHECK-FIXES: {{^}}    to(torch::Device("cuda:0"));{{$}}
  }
};

// Negative cases.

void valid(torch::Tensor x) {
  auto a = torch::Device("cpu");
  auto b = x.to("cuda");
  torch::Device c("cuda:1");
  auto d = torch::Device("mps");
  auto e = torch::Device("meta");
  auto f = torch::zeros({2}, torch::TensorOptions().device("cuda:0"));
  auto g = torch::Device("cuda:127");
  auto h = torch::Device("xla");
  auto i = torch::Device("privateuseone");
  auto j = x.to(torch::Device("hip:10"));
}

void notDeviceStrings(torch::Tensor x, torch::nn::Module &m) {
  std::string name = "CPU";
  std::cout << "GPU" << std::endl;
  auto buffer = m.register_buffer("cuda0", x);
  auto y = x.to(torch::kCUDA);
  auto z = torch::tensor({1, 2}).to(torch::kFloat);
}

void notLiterals(const std::string &flag, int index) {
  auto a = torch::Device(flag);                                  // not a literal
  auto b = torch::Device("cuda:" + std::to_string(index));        // built at run time
  auto c = torch::Device(torch::kCUDA, 1);
}

#define DEVICE_NAME "CUDA"
void inMacro() { auto d = torch::Device(DEVICE_NAME); }
