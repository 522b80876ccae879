#include <torch/torch.h>
#include <iostream>

// Reads of tensors the program keeps on the CPU wait for no device: loaded
// with torch::kCPU, copied to the CPU into a container, a DataLoader batch
// never moved. The same reads of tensors that may be on the GPU are
// findings.

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

torch::Device pickDevice() {
  return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
}

float loaded(std::shared_ptr<Net> net, torch::Device device) {
  torch::Tensor table, restored, placed;
  torch::load(table, "table.pt", torch::kCPU);
  torch::load(restored, "restored.pt"); // back where it was saved from
  torch::load(placed, "placed.pt", device);
  std::vector<torch::Tensor> rows;
  torch::load(rows, "rows.pt", torch::kCPU);
  float total = 0;
  for (int i = 0; i < 10; ++i) {
    auto y = net->forward(torch::randn({2, 4}, device));
    total += table[i].item<float>() + rows[i].sum().item<float>();
    (void)y;
  }
  for (int i = 0; i < 10; ++i) {
    auto y = net->forward(torch::randn({2, 4}, device));
    total += restored[i].item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 'item' waits for the device on every iteration of this loop [device-sync-in-loop]
    (void)y;
  }
  for (int i = 0; i < 10; ++i) {
    auto y = net->forward(torch::randn({2, 4}, device));
    total += placed[i].item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'item' waits for the device on every iteration of this loop [device-sync-in-loop]
    (void)y;
  }
  return total;
}

float loadedModule(torch::Device device) {
  auto onHost = std::make_shared<Net>();
  onHost->to(device);
  torch::load(onHost, "net.pt", torch::kCPU);
  auto onDevice = std::make_shared<Net>();
  onDevice->to(device);
  float total = 0;
  for (int i = 0; i < 10; ++i) {
    auto y = onDevice->forward(torch::randn({2, 4}, device));
    total += onHost->forward(torch::randn({2, 4})).sum().item<float>();
    total += y.sum().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'item' waits for the device on every iteration of this loop [device-sync-in-loop]
  }
  return total;
}

float collected(std::shared_ptr<Net> net, torch::Device device) {
  std::vector<torch::Tensor> onHost, onDevice;
  for (int i = 0; i < 10; ++i) {
    auto out = net->forward(torch::randn({2, 4}, device));
    onHost.push_back(out.cpu());
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 'cpu' waits for the device on every iteration of this loop [device-sync-in-loop]
    onDevice.push_back(out);
  }
  float total = 0;
  for (int i = 0; i < 10; ++i) {
    auto y = net->forward(torch::randn({2, 4}, device));
    total += onHost[i].sum().item<float>();
    total += onDevice[i].sum().item<float>() + y.sum().item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: 'item' waits for the device on every iteration of this loop; 1 more synchronisation in this loop [device-sync-in-loop]
    // CHECK-MESSAGES: :[[@LINE-2]]:56: note: 'item' waits for the device too
  }
  return total;
}

int64_t batches(std::shared_ptr<Net> net, torch::Device device) {
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("data").map(
          torch::data::transforms::Stack<>()),
      8);
  int64_t seen = 0;
  for (auto &batch : *loader) {
    auto [data, target] = batch;
    auto y = net->forward(data.to(device));
    seen += target.sum().item<int64_t>(); // never moved
    batch.target = batch.target.to(device);
    seen += batch.target.sum().item<int64_t>();
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: 'item' waits for the device on every iteration of this loop [device-sync-in-loop]
  }
  return seen;
}
