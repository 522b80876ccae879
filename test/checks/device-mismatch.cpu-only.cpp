#include <torch/torch.h>

// A translation unit that never names an accelerator has no device findings:
// everything here runs on the CPU.

torch::Tensor toHost(const torch::Tensor &t) { return t.cpu(); }

void cpuOnly(torch::Device device, torch::Tensor x, torch::Tensor w) {
  auto x_dev = x.to(device);
  auto host = x_dev.cpu();
  auto a = host + x_dev;
  auto b = torch::mm(x_dev, w.to(torch::kCPU));
  auto c = torch::cat({x_dev, w.cpu()});
  auto total = x_dev.sum().cpu();
  total += x_dev.sum();
  auto d = toHost(x_dev) * x_dev;
}
// CHECK-MESSAGES-NOT: warning:
