// Device strings from flags and configs: type names are lower-case, indices follow a colon.
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>
#include <string>

struct RunConfig {
  std::string train_device = "cuda";
  std::string eval_device = "cuda:1";
  std::string export_device = "cpu";
};

torch::Device device_from_flag(const std::string& flag) {
  if (flag == "gpu") return torch::Device("GPU");  // BUG(device-invalid-string): "GPU" is not a device type; use "cuda"
  if (flag == "cpu") return torch::Device("CPU");  // BUG(device-invalid-string): device types are lower-case: "cpu"
  if (flag == "mac") return torch::Device("mps");
  if (flag == "second") return torch::Device("cuda0");  // BUG(device-invalid-string): missing ':' before the index
  return torch::Device(flag);
}

torch::Device parse_rank_device(int rank) {
  if (rank < 0) return torch::Device("cuda:-1");  // BUG(device-invalid-string): negative index in a device string
  return torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(rank));
}

int main(int argc, char** argv) {
  RunConfig cfg;
  if (const char* env = std::getenv("TRAIN_DEVICE")) cfg.train_device = env;
  torch::Device train_device = torch::cuda::is_available() ? torch::Device(cfg.train_device)
                                                           : torch::Device("cpu");
  torch::Device eval_device(cfg.eval_device);
  torch::Device export_device(cfg.export_device);
  torch::Device fallback("Cuda:1");  // BUG(device-invalid-string): "Cuda" must be lower-case
  if (argc > 1) train_device = device_from_flag(argv[1]);
  if (argc > 2) eval_device = parse_rank_device(std::atoi(argv[2]));

  std::cout << train_device << ' ' << eval_device << ' ' << export_device << ' ' << fallback << '\n';
  auto x = torch::ones({2, 2}, torch::TensorOptions().device(train_device));
  auto y = x.to(export_device);
  std::cout << y.sum().item<float>() << '\n';
}
