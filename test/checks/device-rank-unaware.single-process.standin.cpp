// FIXTURE-HEADERS: standin
#include <torch/torch.h>
#include <cstdlib>
#include <string>

// One process, whatever GPU it picks: no rank anywhere, so the CUDA devices
// it chooses are no findings (`--gpu N` is a device, not a rank).
int main(int argc, char **argv) {
  int gpu = argc > 2 && std::string(argv[1]) == "--gpu" ? std::atoi(argv[2]) : 0;
  const char *threads = std::getenv("OMP_NUM_THREADS");
  torch::Device device(torch::kCUDA);
  torch::Device chosen(torch::kCUDA, static_cast<c10::DeviceIndex>(gpu));
  auto x = torch::zeros({2}, torch::kCUDA).to(torch::Device("cuda:0"));
  auto y = x.cuda();
  (void)threads, (void)chosen, (void)y;
}
// CHECK-MESSAGES-NOT: warning:
