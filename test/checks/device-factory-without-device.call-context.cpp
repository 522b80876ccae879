#include <torch/torch.h>

// Helpers analysed in the context of their calls: a tensor parameter is where
// the call site's argument is.

torch::Device pickDevice() {
  return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
}

// A contrastive mask created without a device, meeting the similarity matrix.
torch::Tensor maskedSimilarity(const torch::Tensor &sim) {
  auto mask = torch::eye(sim.size(0));
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: tensor created without a device is on the CPU, and meets a tensor on 'device' (which may be a GPU) in 'operator-' [device-factory-without-device]
  // CHECK-FIXES: {{^}}  auto mask = torch::eye(sim.size(0), torch::device(sim.device()));{{$}}
  return sim - mask * 1e9;
  // CHECK-MESSAGES: :[[@LINE-1]]:10: note: it meets 'sim' here: LibTorch throws 'Expected all tensors to be on the same device' when 'device' is not the CPU
  // CHECK-MESSAGES: :[[@LINE+6]]:10: note: 'maskedSimilarity' is called here with 'features.mm(features.t())' on 'device' (which may be a GPU)
  // CHECK-MESSAGES: :[[@LINE+45]]:17: note: 'contrastiveLoss' is called here
}

// Two levels down: the loss helper passes its argument on.
torch::Tensor contrastiveLoss(const torch::Tensor &features) {
  return maskedSimilarity(features.mm(features.t())).logsumexp(1).mean();
}

// A running sum in a helper that returns nothing.
void accumulate(torch::Tensor &total, const torch::Tensor &loss) {
  total += loss;
}

void addToCpuSum(const torch::Tensor &loss) {
  auto sum = torch::zeros({1});
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: tensor created without a device is on the CPU, and meets a tensor on 'device' (which may be a GPU) in 'operator+=' [device-factory-without-device]
  // CHECK-FIXES: {{^}}  auto sum = torch::zeros({1}, torch::device(loss.device()));{{$}}
  sum += loss;
}

// Not findings: the helper follows its input's device.
torch::Tensor followsInput(const torch::Tensor &x) {
  auto a = torch::ones({4}, x.options());
  auto b = torch::zeros_like(x);
  auto c = torch::empty({4}, x.options());
  auto half = torch::tensor(0.5); // 0-dim: accepted as an input
  return x * a + b + c * half;
}

// Not a finding: only ever called with CPU tensors.
torch::Tensor cpuOnlyHelper(const torch::Tensor &x) {
  return x + torch::ones({4});
}

// Recursion stays quiet and terminates.
torch::Tensor halve(const torch::Tensor &x, int n) {
  if (n == 0)
    return x;
  return halve(x / 2, n - 1);
}

void train(const std::vector<torch::Tensor> &batches) {
  torch::Device device = pickDevice();
  for (const auto &batch : batches) {
    auto features = batch.to(device);
    auto loss = contrastiveLoss(features);
    addToCpuSum(loss);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: note: 'addToCpuSum' is called here with 'loss' on 'device' (which may be a GPU)
    auto y = followsInput(features) + halve(features, 3);
    cpuOnlyHelper(torch::rand({4}));
    auto total = torch::zeros({1}, device);
    accumulate(total, loss);
  }
}
