#include <torch/script.h>
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

void resume(const std::string &path, torch::Device device) {
  auto net = std::make_shared<Net>();
  net->to(device);
  torch::load(net, path);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'torch::load' without a device moves the parameters of 'net' back to the device the checkpoint was saved from, undoing its move to 'device'; pass 'device' to load to [device-load-without-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: 'net' is moved to 'device' here
  // CHECK-FIXES: {{^}}  torch::load(net, path, device);{{$}}
}

void resumeWithTwoDevices(const std::string &path, torch::Device staging,
                          torch::Device target) {
  auto net = std::make_shared<Net>();
  net->to(staging);
  net->to(target);
  // The last move before the load names the device to pass.
  torch::load(net, path);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'torch::load' without a device moves the parameters of 'net' back {{.*}} undoing its move to 'target'; pass 'target' to load to [device-load-without-device]
  // CHECK-FIXES: {{^}}  torch::load(net, path, target);{{$}}
  torch::optim::SGD optimizer(net->parameters(), 0.1);
  torch::load(optimizer, path + ".opt");
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'torch::load' without a device restores every tensor to the device it was saved from, and the existing parameters adopt it; pass the device to load to [device-load-without-device]
  torch::nn::Linear head(4, 2);
  head->to(torch::kCUDA);
  torch::load(head, path);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'torch::load' without a device moves the parameters of 'head' back {{.*}} undoing its move to 'torch::kCUDA'; pass 'torch::kCUDA' to load to [device-load-without-device]
  // CHECK-FIXES: {{^}}  torch::load(head, path, torch::kCUDA);{{$}}
}

void loadScript(const std::string &path) {
  torch::Device device(torch::kCUDA);
  auto module = torch::jit::load(path);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'torch::jit::load' without a device restores every tensor to the device it was saved from; pass the device to load to [device-load-without-device]
  // CHECK-FIXES: {{^}}  auto module = torch::jit::load(path, device);{{$}}
}

void loadTensors(torch::Device device) {
  std::vector<torch::Tensor> tensors;
  if (true) {
    torch::load(tensors, "tensors.pt");
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'torch::load' without a device {{.*}} [device-load-without-device]
    // CHECK-FIXES: {{^}}    torch::load(tensors, "tensors.pt", device);{{$}}
  }
  torch::Tensor t;
  torch::load(t, "t.pt");
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'torch::load' without a device restores every tensor to the device it was saved from; pass the device to load to [device-load-without-device]
}

void archive(torch::Device device) {
  torch::serialize::InputArchive archive;
  archive.load_from("ckpt.pt");
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'torch::serialize::InputArchive::load_from' without a device {{.*}} [device-load-without-device]
  // CHECK-FIXES: {{^}}  archive.load_from("ckpt.pt", device);{{$}}
  std::ifstream in("ckpt.pt", std::ios::binary);
  archive.load_from(in);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'torch::serialize::InputArchive::load_from' without a device {{.*}} [device-load-without-device]
}

struct Server {
  torch::Device device{torch::kCPU};
  torch::jit::Module module;
  void reload(const std::string &path) {
    module = torch::jit::load(path);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'torch::jit::load' without a device {{.*}} [device-load-without-device]
    // CHECK-FIXES: {{^}}    module = torch::jit::load(path, device);{{$}}
  }
};

void twoDevices(const std::string &path, torch::Device from, torch::Device to) {
  auto net = std::make_shared<Net>();
  // Two devices in scope: which one is meant is not known, so no fix-it.
  torch::load(net, path);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'torch::load' without a device {{.*}} [device-load-without-device]
  // CHECK-FIXES: {{^}}  torch::load(net, path);{{$}}
}

void noDevice(const std::string &path) {
  std::stringstream stream;
  auto module = torch::jit::load(stream);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'torch::jit::load' without a device {{.*}} [device-load-without-device]
  // CHECK-FIXES: {{^}}  auto module = torch::jit::load(stream);{{$}}
}

// Negative cases.

void withDevice(const std::string &path, torch::Device device) {
  auto net = std::make_shared<Net>();
  torch::load(net, path, device);
  torch::load(net, path, torch::kCPU);
  torch::load(net, path, torch::Device("cuda:0"));
  std::vector<torch::Tensor> tensors;
  torch::load(tensors, path, device);
  auto module = torch::jit::load(path, device);
  auto cpuModule = torch::jit::load(path, torch::kCPU);
  auto explicitDefault = torch::jit::load(path, c10::nullopt);
  torch::serialize::InputArchive archive;
  archive.load_from(path, device);
  torch::save(net, path);          // saving is not loading
  torch::serialize::OutputArchive out;
  out.save_to(path);
}
