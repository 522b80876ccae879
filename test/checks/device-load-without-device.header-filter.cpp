#include <torch/script.h>
#include <torch/torch.h>

// FIXTURE-CONFIG: {HeaderFilterRegex: '.*'}
// Every header's diagnostics are shown, LibTorch's among them (its API
// headers are found through -I, not as system headers). The loads are still
// reported at the user's calls, never in torch::load's body in
// torch/serialize.h, where InputArchive::load_from is called without a
// device: LibTorch's own code is not the user's. (The file names an
// accelerator, so that a load with no device in scope is reported too.)

void resume(const std::string &path, torch::Device device) {
  torch::nn::Linear net(4, 2);
  torch::load(net, path);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'torch::load' without a device restores every tensor to the device it was saved from, and the existing parameters adopt it; pass the device to load to [device-load-without-device]
  std::vector<torch::Tensor> tensors;
  torch::load(tensors, path);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'torch::load' without a device restores every tensor to the device it was saved from; pass the device to load to [device-load-without-device]
  torch::Tensor t;
  torch::load(t, path, device);
}

void toAccelerator(torch::nn::Linear net) { net->to(torch::kCUDA); }
