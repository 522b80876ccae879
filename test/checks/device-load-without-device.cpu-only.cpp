#include <torch/torch.h>

// This file never names an accelerator. A load with no device at hand is not
// reported: nothing says the program uses any device but the CPU.

struct Regressor : torch::nn::Module {
  Regressor() { body = register_module("body", torch::nn::Linear(4, 1)); }
  torch::nn::Linear body{nullptr};
};

void roundTrip() {
  auto model = std::make_shared<Regressor>();
  torch::save(model, "regressor.pt");
  auto restored = std::make_shared<Regressor>();
  torch::load(restored, "regressor.pt");
  std::vector<torch::Tensor> tensors;
  torch::load(tensors, "tensors.pt");
}

// A device at hand, or a module moved before the load, is reported all the
// same: the device comes from the caller.
void resume(std::shared_ptr<Regressor> model, torch::Device device) {
  torch::load(model, "regressor.pt");
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'torch::load' without a device restores every tensor to the device it was saved from, and the existing parameters adopt it; pass the device to load to [device-load-without-device]
  // CHECK-FIXES: {{^}}  torch::load(model, "regressor.pt", device);{{$}}
}

void moveThenLoad(std::shared_ptr<Regressor> model, const torch::Device &target) {
  model->to(target);
  torch::load(model, "regressor.pt");
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'torch::load' without a device moves the parameters of 'model' back to the device the checkpoint was saved from, undoing its move to 'target'; pass 'target' to load to [device-load-without-device]
  // CHECK-FIXES: {{^}}  torch::load(model, "regressor.pt", target);{{$}}
}
