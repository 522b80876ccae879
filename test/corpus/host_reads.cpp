// Reading tensor memory on the host: only CPU tensors (or bound CPU copies) may be dereferenced.
#include <torch/torch.h>

#include <cstring>
#include <iostream>
#include <vector>

std::vector<int64_t> count_classes(const torch::Tensor& pred_on_device, int64_t classes) {
  std::vector<int64_t> counts(classes, 0);
  auto pred = pred_on_device.cpu();
  auto acc = pred.accessor<int64_t, 1>();
  for (int64_t i = 0; i < acc.size(0); ++i) counts[acc[i]]++;
  return counts;
}

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto logits = torch::randn({128, 10}, torch::TensorOptions().device(device));
  auto pred = logits.argmax(1);

  std::vector<int64_t> a(10, 0);
  auto pacc = pred.accessor<int64_t, 1>();  // BUG(device-host-access): accessor on a tensor that may live on the GPU
  for (int64_t i = 0; i < pacc.size(0); ++i) a[pacc[i]]++;
  auto b = count_classes(pred, 10);

  const float* raw = logits.data<float>();  // BUG(device-host-access): data<T>() of a GPU tensor read below
  std::cout << raw[0] << '\n';

  const float* dangling = logits.softmax(1).to(torch::kCPU).data_ptr<float>();  // BUG(device-host-access): pointer into a temporary CPU copy; dangles after this statement
  std::cout << dangling[0] << '\n';

  std::vector<float> host(10);
  std::memcpy(host.data(), logits[0].cpu().data_ptr<float>(), 10 * sizeof(float));  // temporary used within the statement: fine

  auto probs = logits.softmax(1).cpu();
  const float* p = probs.data_ptr<float>();  // bound copy: fine
  std::cout << p[0] << ' ' << logits.max().item<float>() << '\n';

  auto cpu_table = torch::rand({4, 4});
  float* t = cpu_table.data_ptr<float>();  // created on the CPU: fine
  auto acc = cpu_table.accessor<float, 2>();
  t[0] = acc[1][1];

  auto staged = torch::empty({10}, torch::TensorOptions().pinned_memory(torch::cuda::is_available()));
  staged.copy_(logits[1]);
  std::cout << staged.data_ptr<float>()[0] << ' ' << a.size() + b.size() << '\n';
}
