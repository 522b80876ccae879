// FIXTURE-HEADERS: standin
#include <torch/torch.h>

// The pruned-edges fixture on the stand-in header (test/checks/standin): the
// constructs alone, without LibTorch's headers. clang's CFG hands out null
// successors for the edges it prunes: the exit of `while (true)`, the true
// branch of `if (false)`, the back edge of `do {} while (0)` (what
// TORCH_CHECK and AT_ASSERT expand to). A traversal that follows them
// crashes; the analysis must walk past them and still see what comes after.

torch::Device pickDevice() {
  return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
}

torch::Tensor accumulate(const std::vector<torch::Tensor> &losses,
                         torch::Device device) {
  auto total = torch::zeros({1});
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: tensor created without a device is on the CPU, and meets a tensor on 'device' (which may be a GPU) in 'operator+=' [device-factory-without-device]
  // CHECK-FIXES: {{^}}  auto total = torch::zeros({1}, torch::device(device));{{$}}
  size_t i = 0;
  while (true) {
    if (i == losses.size())
      break;
    total += losses[i++].to(device);
  }
  if (false)
    total = total.to(device);
  return total;
}

// Past a TORCH_CHECK: the conflict after the `do {} while (0)` is found.
torch::Tensor shift(const torch::Tensor &batch, torch::Device device) {
  auto x = batch.to(device);
  TORCH_CHECK(x.dim() == 2, "a batch of rows");
  AT_ASSERT(x.dim() == 2);
  auto bias = torch::zeros({2});
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: tensor created without a device is on the CPU, and meets a tensor on 'device' (which may be a GPU) in 'operator+' [device-factory-without-device]
  // CHECK-FIXES: {{^}}  auto bias = torch::zeros({2}, torch::device(device));{{$}}
  return x + bias;
}

// A function template instantiated with the device: the checks sit in the
// instantiation's body.
template <typename Batches>
float train(Batches &batches, torch::Device device) {
  float sum = 0;
  for (auto &batch : batches) {
    auto loss = batch.to(device).mean();
    AT_ASSERT(loss.dim() == 0);
    TORCH_CHECK(loss.dim() == 0, "a scalar loss");
    sum += loss.template item<float>();
  }
  return sum;
}

float run(std::vector<torch::Tensor> &batches) {
  return train(batches, pickDevice());
}
