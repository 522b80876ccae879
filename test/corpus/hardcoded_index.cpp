// Multi-GPU trainer: the device is chosen once (from flags) and passed down; two helpers ignore it.
#include <torch/torch.h>

#include <iostream>
#include <string>

struct Options {
  std::string device = "cuda:0";
  int64_t batch_size = 32;
  bool benchmark = false;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i];
    if (k == "--device") o.device = argv[i + 1];
    if (k == "--batch") o.batch_size = std::stoll(argv[i + 1]);
  }
  return o;
}

torch::Tensor load_batch(int64_t n) {
  auto images = torch::rand({n, 3, 32, 32});
  return images.to(torch::Device("cuda:1"));  // BUG(device-hardcoded): literal cuda:1 in the data pipeline ignores the configured device
}

torch::Tensor load_batch_to(int64_t n, torch::Device device) {
  return torch::rand({n, 3, 32, 32}).to(device);
}

torch::Tensor scratch_buffer(int64_t n) {
  return torch::empty({n}, torch::TensorOptions().device(torch::Device(torch::kCUDA, 1)));  // BUG(device-hardcoded): literal device index 1
}

torch::Device replica_device(int rank) {
  return torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(rank));  // index from the caller
}

int main(int argc, char** argv) {
  const Options opts = parse(argc, argv);
  torch::Device device = torch::cuda::is_available() ? torch::Device(opts.device) : torch::Device(torch::kCPU);
  const torch::Device first_gpu(torch::kCUDA, 0);  // main decides: not a finding
  if (torch::cuda::device_count() > 1) device = replica_device(1);

  torch::nn::Sequential model(torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 8, 3)), torch::nn::ReLU(),
                              torch::nn::AdaptiveAvgPool2d(1), torch::nn::Flatten(), torch::nn::Linear(8, 10));
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.01);
  for (int step = 0; step < 10; ++step) {
    auto x = load_batch_to(opts.batch_size, device);
    auto y = torch::randint(0, 10, {opts.batch_size}, torch::TensorOptions().dtype(torch::kLong).device(device));
    auto loss = torch::cross_entropy_loss(model->forward(x), y);
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  if (opts.benchmark && torch::cuda::device_count() > 1) {
    auto b = load_batch(8);
    auto s = scratch_buffer(1024);
    std::cout << b.device() << ' ' << s.device() << ' ' << first_gpu << '\n';
  }
}
