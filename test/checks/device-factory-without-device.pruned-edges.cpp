#include <torch/torch.h>

// Functions whose CFG has pruned edges: the false branch of `while (true)`,
// the true branch of `if (false)` and the back edge of `do {} while (0)` (the
// expansion of AT_ASSERT and TORCH_CHECK). clang's CFG hands out null
// successors for them; the analysis must walk past them (it crashed on them).

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

template <typename Loader>
float train(Loader &batches, torch::Device device) {
  float sum = 0;
  for (auto &batch : batches) {
    auto loss = batch.to(device).mean();
    AT_ASSERT(!std::isnan(loss.template item<float>()));
    TORCH_CHECK(loss.dim() == 0, "a scalar loss");
    sum += loss.template item<float>();
  }
  return sum;
}

float run(std::vector<torch::Tensor> &batches) {
  return train(batches, pickDevice());
}
