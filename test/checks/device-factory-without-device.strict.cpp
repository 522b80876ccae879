// FIXTURE-CONFIG: {CheckOptions: {device-factory-without-device.Strict: true}}
#include <torch/torch.h>

// Strict: every device-less factory (not 0-dim) in a function that puts
// tensors on an accelerator, whether or not it is seen to meet one.
void strict(torch::Device device, torch::Tensor x) {
  auto x_dev = x.to(device);
  auto buffer = torch::zeros({8});
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: tensor created without a device is on the CPU, in a function that puts tensors on an accelerator [device-factory-without-device]
  auto noise = torch::randn({8}, torch::kFloat);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: tensor created without a device is on the CPU, in a function {{.*}} [device-factory-without-device]
  auto y = x_dev + torch::ones({3});
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: tensor created without a device is on the CPU, and meets a tensor on 'device' (which may be a GPU) in 'operator+' [device-factory-without-device]
  // 0-dim and device-carrying factories stay quiet.
  auto s = torch::tensor(0.5);
  auto z = torch::zeros({});
  auto d = torch::zeros({8}, torch::device(device));
}

// A function that keeps everything on the CPU stays quiet even in Strict.
void cpuOnly() {
  auto buffer = torch::zeros({8});
  auto sum = buffer + torch::ones({8});
  auto host = torch::kCUDA == torch::kCPU;
}
