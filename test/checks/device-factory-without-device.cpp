#include <torch/torch.h>

struct Net : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x; }
};

// The multi-scale loss accumulator: a 1-dim CPU tensor that every loss on the
// GPU is added into.
torch::Tensor multiScale(std::shared_ptr<Net> model, torch::Device device,
                         const std::vector<torch::Tensor> &inputs,
                         const std::vector<torch::Tensor> &targets) {
  model->to(device);
  auto total = torch::zeros({1});
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: tensor created without a device is on the CPU, and meets a tensor on 'device' (which may be a GPU) in 'operator+=' [device-factory-without-device]
  // CHECK-FIXES: {{^}}  auto total = torch::zeros({1}, torch::device(device));{{$}}
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto out = model->forward(inputs[i].to(device));
    total += torch::mse_loss(out, targets[i].to(device));
  }
  return total;
}

// A helper in the same file that returns a tensor without a device.
torch::Tensor makeMask() {
  return torch::ones({4});
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: tensor created without a device is on the CPU, and meets a tensor on 'device' (which may be a GPU) in 'operator*' [device-factory-without-device]
}

void positives(torch::Device device, torch::Tensor x, torch::Tensor a,
               torch::Tensor b) {
  auto x_dev = x.to(device);
  auto loss = torch::mse_loss(x_dev, x_dev);

  // 0-dim, but the output of an in-place op.
  auto acc = torch::zeros({});
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: tensor created without a device is on the CPU, and meets a tensor on 'device' (which may be a GPU) in 'operator+=', whose output it is: a 0-dim CPU tensor is accepted as an input only [device-factory-without-device]
  // CHECK-FIXES: {{^}}  auto acc = torch::zeros({}, torch::device(device));{{$}}
  acc += loss;

  // torch::tensor({0.5}) is 1-D of size 1, not 0-dim.
  auto weight = torch::tensor({0.5});
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: tensor created without a device {{.*}} in 'operator*' [device-factory-without-device]
  // CHECK-FIXES: {{^}}  auto weight = torch::tensor({0.5}, torch::device(device));{{$}}
  auto y1 = x_dev * weight;

  auto y2 = x_dev * makeMask();

  auto y3 = torch::cat({x_dev, torch::zeros({2, 3})});
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: tensor created without a device {{.*}} in 'cat' [device-factory-without-device]
  // CHECK-FIXES: {{^}}  auto y3 = torch::cat({x_dev, torch::zeros({2, 3}, torch::device(device))});{{$}}
  auto y4 = torch::matmul(x_dev, torch::eye(3));
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: tensor created without a device {{.*}} in 'matmul' [device-factory-without-device]
  auto y5 = torch::mse_loss(x_dev, torch::zeros({4}));
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: tensor created without a device {{.*}} in 'mse_loss' [device-factory-without-device]
  // Options with a dtype only carry no device.
  auto y6 = x_dev + torch::ones({3}, torch::kFloat);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: tensor created without a device {{.*}} in 'operator+' [device-factory-without-device]
  // CHECK-FIXES: {{^}}  auto y6 = x_dev + torch::ones({3}, torch::kFloat);{{$}}
  auto y7 = torch::randn({3}, torch::TensorOptions().dtype(torch::kFloat)) - x_dev;
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: tensor created without a device {{.*}} in 'operator-' [device-factory-without-device]
  auto y8 = x_dev.gt(torch::arange(4));
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: tensor created without a device {{.*}} in 'gt' [device-factory-without-device]
  // lerp takes no CPU operand, not even a 0-dim one.
  auto y9 = torch::lerp(x_dev, x_dev, torch::tensor(0.5));
  // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: tensor created without a device is on the CPU, and meets a tensor on 'device' (which may be a GPU) in 'lerp', which accepts no CPU operand, not even a 0-dim one [device-factory-without-device]
}

void availableTernary(torch::Tensor x) {
  auto device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto x_dev = x.to(device);
  auto bias = torch::zeros({3});
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: tensor created without a device is on the CPU, and meets a tensor on 'device' (which may be a GPU) in 'operator+' [device-factory-without-device]
  // CHECK-FIXES: {{^}}  auto bias = torch::zeros({3}, torch::device(device));{{$}}
  auto y = x_dev + bias;
}

void ifForm(torch::Tensor x) {
  torch::Device device(torch::kCPU);
  if (torch::cuda::is_available())
    device = torch::kCUDA;
  auto x_dev = x.to(device);
  auto y = x_dev * torch::rand({3});
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: tensor created without a device is on the CPU, and meets a tensor on 'device' (which may be a GPU) in 'operator*' [device-factory-without-device]
  // CHECK-FIXES: {{^}}  auto y = x_dev * torch::rand({3}, torch::device(device));{{$}}
}

void fromString(const std::string &flag, torch::Tensor x) {
  torch::Device device(flag);
  auto x_dev = x.to(device);
  auto y = torch::stack({torch::ones({3}), x_dev});
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: tensor created without a device is on the CPU, and meets a tensor on 'device' (which may be a GPU) in 'stack' [device-factory-without-device]
}

void alwaysCuda(torch::Tensor x) {
  auto x_dev = x.cuda();
  auto y = torch::full({3}, 2.0) + x_dev;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: tensor created without a device is on the CPU, and meets a tensor on an accelerator in 'operator+' [device-factory-without-device]
}

// Negatives.
// Outputs collected with push_back, then summed into a CPU accumulator.
torch::Tensor collected(torch::Device device, int scales) {
  std::vector<torch::Tensor> outs;
  for (int i = 0; i < scales; ++i)
    outs.push_back(torch::randn({4}, torch::device(device)));
  auto total = torch::zeros({4});
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: tensor created without a device is on the CPU, and meets a tensor on 'device' (which may be a GPU) in 'operator+=' [device-factory-without-device]
  // CHECK-FIXES: {{^}}  auto total = torch::zeros({4}, torch::device(device));{{$}}
  for (auto &o : outs)
    total += o;
  return total;
}

void negatives(torch::Device device, torch::Tensor x, torch::Tensor param,
               torch::Tensor idx) {
  auto out = x.to(device);
  auto loss = torch::mse_loss(out, out);
  // 0-dim CPU tensors as inputs of element-wise ops.
  auto n1 = out * torch::tensor(0.5);
  auto n2 = torch::zeros({}) + out;
  auto n3 = torch::scalar_tensor(2.0) * out;
  // Options that carry a device.
  auto n4 = torch::zeros({1}, out.options()) + out;
  auto n5 = torch::zeros({3}, torch::TensorOptions().device(device)) + out;
  auto n6 = torch::ones({3}, torch::device(device)) * out;
  auto n7 = torch::randn({3}, torch::dtype(torch::kFloat).device(device)) - out;
  auto n8 = torch::zeros({3}, torch::kCUDA) + out;
  // *_like of a device tensor.
  auto n9 = torch::zeros_like(out) + out;
  // acc = acc + loss with a 0-dim CPU acc: the result is on the device.
  auto acc = torch::zeros({});
  for (int i = 0; i < 3; ++i)
    acc = acc + loss;
  // Moved before meeting.
  auto n10 = torch::zeros({3}).to(device) + out;
  // Stays on the CPU.
  auto cpuBuf = torch::zeros({3});
  cpuBuf += torch::ones({3});
  // Indexing a device tensor with CPU indices; copy_ from another device.
  auto n11 = out.index({torch::arange(2)});
  out.copy_(torch::zeros({3}));
  // Unknown device: quiet.
  auto n12 = param + torch::ones({3});
  // A C++ scalar.
  auto n13 = out * 2.0;
}
