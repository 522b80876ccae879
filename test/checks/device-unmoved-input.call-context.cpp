#include <torch/torch.h>

// A module moved by the caller and passed by reference to a training step
// (here a template): the step's forward meets the input where the caller put
// it.

struct NetImpl : torch::nn::Module {
  NetImpl() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(const torch::Tensor &x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);

// A training step that takes the moved model by reference.
template <typename Model>
void step(Model &model, const torch::Tensor &batch) {
  auto out = model->forward(batch);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'batch' is on the CPU, but 'model' was moved to 'device' (which may be a GPU): its forward fails with 'Expected all tensors to be on the same device' (convolutions: 'Input type (CPUFloatType) and weight type (CUDAFloatType) should be the same') [device-unmoved-input]
  (void)out;
}

// Not a finding: the caller moves the batch.
void stepOnDevice(Net &model, const torch::Tensor &batch, torch::Device device) {
  auto out = model->forward(batch.to(device));
  (void)out;
}

void run(const torch::Tensor &cpuBatch) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Net model;
  model->to(device);
  step(model, torch::rand({2, 4}));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: note: 'step' is called here with 'torch::rand({2, 4})' on the CPU
  stepOnDevice(model, torch::rand({2, 4}), device);
  Net cpuModel;
  step(cpuModel, torch::rand({2, 4}));
}
