// FIXTURE-HEADERS: standin
#include <torch/torch.h>
#include <cstdlib>
#include <string>

// One process per GPU that shows each process only its own GPU: with
// CUDA_VISIBLE_DEVICES set from the local rank before the first CUDA call,
// "cuda:0" and torch::kCUDA are that process's GPU. No findings.
int main() {
  const char *rank = std::getenv("LOCAL_RANK");
  setenv("CUDA_VISIBLE_DEVICES", rank ? rank : "0", 1);
  torch::Device device(torch::kCUDA);
  auto x = torch::zeros({2}, torch::kCUDA).to(torch::Device("cuda:0"));
  auto y = x.cuda();
  (void)y;
}
// CHECK-MESSAGES-NOT: warning:
