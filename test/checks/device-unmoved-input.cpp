#include <torch/torch.h>

struct Net : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x; }
};

torch::Tensor makeInput() { return torch::rand({1, 784}); }

void positives(std::shared_ptr<Net> model, torch::Device device, torch::Tensor x,
               std::vector<torch::data::Example<>> &batches) {
  model->to(device);
  auto y1 = model->forward(torch::randn({1, 784}));
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'torch::randn({1, 784})' is on the CPU, but 'model' was moved to 'device' (which may be a GPU): its forward fails with 'Expected all tensors to be on the same device' (convolutions: 'Input type (CPUFloatType) and weight type (CUDAFloatType) should be the same') [device-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: 'model' is moved to 'device' (which may be a GPU) here
  // CHECK-FIXES: {{^}}  auto y1 = model->forward(torch::randn({1, 784}).to(device));{{$}}
  auto input = torch::ones({2, 784});
  auto y2 = model->forward(input);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'input' is on the CPU, but 'model' was moved to 'device' {{.*}} [device-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-3]]:16: note: the input is created here without a device
  // CHECK-FIXES: {{^}}  auto y2 = model->forward(input.to(device));{{$}}
  auto y3 = model->forward(x.cpu());
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'x.cpu()' is on the CPU, but 'model' {{.*}} [device-unmoved-input]
  auto y4 = model->forward(makeInput());
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'makeInput()' is on the CPU, but 'model' {{.*}} [device-unmoved-input]
  for (auto &batch : batches) {
    auto y5 = model->forward(batch.data);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'batch.data' is on the CPU, but 'model' {{.*}} [device-unmoved-input]
    // CHECK-FIXES: {{^}}    auto y5 = model->forward(batch.data.to(device));{{$}}
  }
}

void holders(torch::Device device) {
  torch::nn::Linear fc(784, 10);
  fc->to(device);
  auto x_cpu = torch::randn({4, 784});
  auto y1 = fc(x_cpu);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'x_cpu' is on the CPU, but 'fc' was moved to 'device' {{.*}} [device-unmoved-input]
  // CHECK-FIXES: {{^}}  auto y1 = fc(x_cpu.to(device));{{$}}
  auto y2 = fc->forward(x_cpu);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'x_cpu' is on the CPU, but 'fc' {{.*}} [device-unmoved-input]

  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(3, 8, 3));
  conv->to(torch::kCUDA);
  auto y3 = conv(torch::rand({1, 3, 32, 32}));
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'torch::rand({1, 3, 32, 32})' is on the CPU, but 'conv' was moved to 'torch::kCUDA': {{.*}} [device-unmoved-input]
  // CHECK-FIXES: {{^}}  auto y3 = conv(torch::rand({1, 3, 32, 32}).to(torch::kCUDA));{{$}}

  torch::nn::Sequential seq(torch::nn::Linear(4, 4), torch::nn::ReLU());
  seq->to(device);
  auto y4 = seq->forward(torch::zeros({2, 4}));
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'torch::zeros({2, 4})' is on the CPU, but 'seq' {{.*}} [device-unmoved-input]
}

void moduleObject(torch::Tensor x) {
  Net net;
  net.to(torch::kCUDA);
  auto y = net.forward(torch::ones({3}));
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'torch::ones({3})' is on the CPU, but 'net' was moved to 'torch::kCUDA': {{.*}} [device-unmoved-input]
}

void ternaryDevice(std::shared_ptr<Net> model) {
  auto device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  model->to(device);
  auto y = model->forward(torch::randn({1, 784}));
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'torch::randn({1, 784})' is on the CPU, but 'model' was moved to 'device' (which may be a GPU): {{.*}} [device-unmoved-input]
  // CHECK-FIXES: {{^}}  auto y = model->forward(torch::randn({1, 784}).to(device));{{$}}
}

void ifForm(std::shared_ptr<Net> model) {
  torch::Device device(torch::kCPU);
  if (torch::cuda::is_available())
    device = torch::kCUDA;
  model->to(device);
  auto y = model->forward(torch::randn({1, 784}));
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'torch::randn({1, 784})' is on the CPU, but 'model' was moved to 'device' (which may be a GPU): {{.*}} [device-unmoved-input]
}

void fromString(std::shared_ptr<Net> model, const std::string &flag) {
  torch::Device device(flag);
  model->to(device);
  auto y = model->forward(torch::randn({1, 784}));
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'torch::randn({1, 784})' is on the CPU, but 'model' was moved to 'device' (which may be a GPU): {{.*}} [device-unmoved-input]
}

// Negatives.
void negatives(std::shared_ptr<Net> model, std::shared_ptr<Net> other,
               torch::Device device, torch::Tensor x, bool useGpu) {
  // Used before the move.
  auto n1 = model->forward(torch::randn({1, 784}));
  model->to(device);
  auto n2 = model->forward(torch::randn({1, 784}).to(device));
  auto n3 = model->forward(torch::randn({1, 784}, torch::device(device)));
  auto x_dev = x.to(device);
  auto n4 = model->forward(torch::zeros({1, 784}, x_dev.options()));
  auto n5 = model->forward(x_dev);
  // Unknown device.
  auto n6 = model->forward(x);
  // A module never moved.
  auto n7 = other->forward(torch::randn({1, 784}));
  // Moved on one path only: unknown.
  torch::nn::Linear fc(4, 2);
  if (useGpu)
    fc->to(device);
  auto n8 = fc(torch::randn({1, 4}));
  // Moved back to the CPU.
  torch::nn::Linear back(4, 2);
  back->to(device);
  back->to(torch::kCPU);
  auto n9 = back(torch::randn({1, 4}));
  // Moved to the CPU explicitly.
  torch::nn::Linear cpu(4, 2);
  cpu->to(torch::kCPU);
  auto n10 = cpu(torch::randn({1, 4}));
  auto n11 = cpu->forward(torch::ones({1, 4}));
  // The input is moved inline.
  auto n12 = fc(torch::randn({1, 4}).cuda());
}

// A submodule reached from outside its owner: Module::to moved it with the
// owner when the owner registers it.
struct AutoEncoder : torch::nn::Module {
  AutoEncoder() {
    decoder = register_module("decoder", torch::nn::Linear(4, 8));
    head = torch::nn::Linear(8, 2);  // never registered: not moved with it
  }
  torch::nn::Linear decoder{nullptr}, head{nullptr};
};

void submodules(torch::Device device) {
  auto ae = std::make_shared<AutoEncoder>();
  auto unmoved = std::make_shared<AutoEncoder>();
  auto z0 = ae->decoder->forward(torch::randn({1, 4}));
  ae->to(device);
  auto z1 = ae->decoder->forward(torch::randn({1, 4}));
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'torch::randn({1, 4})' is on the CPU, but 'decoder' was moved to 'device' (which may be a GPU): {{.*}} [device-unmoved-input]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: 'ae' is moved to 'device' (which may be a GPU) here
  auto z2 = ae->decoder(torch::randn({1, 4}));
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'torch::randn({1, 4})' is on the CPU, but 'decoder' {{.*}} [device-unmoved-input]
  // Negatives: an unregistered member stays behind; an owner never moved.
  auto n1 = ae->head->forward(torch::randn({1, 8}));
  auto n2 = unmoved->decoder->forward(torch::randn({1, 4}));
  auto n3 = ae->decoder->forward(torch::randn({1, 4}).to(device));
}
