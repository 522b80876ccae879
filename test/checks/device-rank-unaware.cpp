#include <torch/torch.h>
#include <cstdlib>
#include <string>

// One process per GPU: the launcher passes each its rank.
int localRank() {
  const char *value = std::getenv("LOCAL_RANK");
  return value ? std::atoi(value) : 0;
}

torch::Device modelDevice() {
  return torch::Device(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'torch::Device(torch::kCUDA)' is the current CUDA device, GPU 0, in every process: this program runs one process per GPU (it reads LOCAL_RANK from the environment) but chooses this device without the rank, so every process works on the same GPU [device-rank-unaware]
  // CHECK-MESSAGES: :[[@LINE-7]]:35: note: one process per GPU: it reads LOCAL_RANK from the environment here
}

struct Worker {
  explicit Worker(int local_rank) : local_rank(local_rank) {}
  torch::Tensor embed(const torch::Tensor &x) { return x.to(device); }
  torch::Device device{torch::kCUDA};
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'torch::kCUDA' is the current CUDA device, GPU 0, in every process{{.*}} [device-rank-unaware]
  int local_rank;
};

void train(torch::nn::Linear model, const std::string &path) {
  const int local_rank = localRank();
  torch::Device device(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'torch::kCUDA' is the current CUDA device, GPU 0, in every process: this program runs one process per GPU (it reads LOCAL_RANK from the environment) but chooses this device without the rank, so every process works on the same GPU; use 'torch::Device(torch::kCUDA, local_rank)' [device-rank-unaware]
  // CHECK-FIXES: {{^}}  torch::Device device(torch::kCUDA, local_rank);{{$}}
  auto noise = torch::randn({4}, torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 'torch::kCUDA' is the current CUDA device{{.*}}; use 'torch::Device(torch::kCUDA, local_rank)' [device-rank-unaware]
  // CHECK-FIXES: {{^}}  auto noise = torch::randn({4}, torch::Device(torch::kCUDA, local_rank));{{$}}
  auto first = noise.to("cuda:0");
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: '"cuda:0"' is GPU 0 in every process: {{.*}}; use 'torch::Device(torch::kCUDA, local_rank)' [device-rank-unaware]
  // CHECK-FIXES: {{^}}  auto first = noise.to(torch::Device(torch::kCUDA, local_rank));{{$}}
  auto copy = noise.cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'cuda()' is the current CUDA device{{.*}} [device-rank-unaware]
  auto zero = torch::zeros({4}, torch::Device(torch::kCUDA, 0));
  // CHECK-MESSAGES: :[[@LINE-1]]:47: warning: 'torch::Device(torch::kCUDA, 0)' is GPU 0 in every process{{.*}}; use 'torch::Device(torch::kCUDA, local_rank)' [device-rank-unaware]
  // CHECK-FIXES: {{^}}  auto zero = torch::zeros({4}, torch::Device(torch::kCUDA, local_rank));{{$}}
  model->to(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'torch::kCUDA' is the current CUDA device{{.*}} [device-rank-unaware]
  // CHECK-FIXES: {{^}}  model->to(torch::Device(torch::kCUDA, local_rank));{{$}}
  torch::load(model, path, torch::Device("cuda"));
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: 'torch::Device("cuda")' is the current CUDA device{{.*}} [device-rank-unaware]
  // CHECK-FIXES: {{^}}  torch::load(model, path, torch::Device(torch::kCUDA, local_rank));{{$}}
  torch::Device picked(torch::cuda::is_available() ? "cuda" : "cpu");
  // CHECK-MESSAGES: :[[@LINE-1]]:54: warning: '"cuda"' is the current CUDA device{{.*}} [device-rank-unaware]
  // CHECK-FIXES: {{^}}  torch::Device picked(torch::cuda::is_available() ? "cuda" : "cpu");{{$}}
  auto toGpu = [](const torch::Tensor &t) { return t.to(torch::kCUDA, true); };
  // CHECK-MESSAGES: :[[@LINE-1]]:57: warning: 'torch::kCUDA' is the current CUDA device{{.*}} [device-rank-unaware]
  (void)first, (void)copy, (void)zero, (void)picked, (void)toGpu;
}

// Negatives: devices built from the rank, CPU devices, devices compared.
#define GPU_ZERO torch::Device(torch::kCUDA)

void negatives(const torch::Tensor &x, int rank) {
  const int local_rank = localRank();
  torch::Device mine(torch::kCUDA, local_rank);
  torch::Device same(torch::kCUDA, static_cast<c10::DeviceIndex>(local_rank % 8));
  torch::Device named("cuda:" + std::to_string(local_rank));
  torch::Device cpu(torch::kCPU);
  auto onCpu = x.to(torch::kCPU);
  auto loaded = torch::zeros({2}, torch::Device("cpu"));
  if (mine.type() == torch::kCUDA) {}
  if (mine == torch::Device(torch::kCUDA)) {}
  auto type = torch::kCUDA;
  auto name = c10::DeviceTypeName(torch::kCUDA);
  if (rank == 0) {
    auto report = x.to(torch::Device(torch::kCUDA, 0)); // rank 0 only
    (void)report;
  }
  auto viaMacro = x.to(GPU_ZERO);
  bool gpu = torch::cuda::is_available();
  (void)same, (void)named, (void)cpu, (void)onCpu, (void)loaded, (void)type,
      (void)name, (void)viaMacro, (void)gpu;
}
