#include <torch/torch.h>

// A metric helper that reads its argument's memory on the host: a finding
// when a caller passes a tensor that may be on a GPU, none for CPU callers.

float topClassShare(const torch::Tensor &logits) {
  auto classes = logits.argmax(1).contiguous();
  const int64_t *data = classes.data_ptr<int64_t>();
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'data_ptr' gives the memory of 'classes', which may be on 'device' (which may be a GPU): the host cannot read device memory (a crash or garbage); copy it to the CPU first ('.cpu()') or use item() for one value [device-host-access]
  int64_t hits = 0;
  for (int64_t i = 0; i < classes.numel(); ++i)
    hits += data[i] == 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:13: note: read on the host here
  return float(hits) / classes.numel();
}

float cpuShare(const torch::Tensor &logits) {
  const float *data = logits.data_ptr<float>();
  return data[0];
}

void evaluate(torch::nn::Linear &model, const torch::Tensor &batch) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  model->to(device);
  auto logits = model->forward(batch.to(device));
  float share = topClassShare(logits);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: note: 'topClassShare' is called here with 'logits' on 'device' (which may be a GPU)
  float onCpu = cpuShare(logits.cpu()) + topClassShare(logits.to(torch::kCPU));
  (void)share;
  (void)onCpu;
}
