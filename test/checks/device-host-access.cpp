#include <torch/torch.h>
#include <cstring>
#include <numeric>

// The program chooses a GPU when there is one.
torch::Device chooseDevice() {
  return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
}

float readDeviceMemory(torch::Device device) {
  auto scores = torch::rand({8}, torch::device(device));
  float *p = scores.data_ptr<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'data_ptr' gives the memory of 'scores', which may be on 'device' (which may be a GPU): the host cannot read device memory (a crash or garbage); copy it to the CPU first ('.cpu()') or use item() for one value [device-host-access]
  // CHECK-MESSAGES: :[[@LINE+1]]:16: note: read on the host here
  float best = p[0];
  float first = *scores.data_ptr<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'data_ptr' gives the memory of 'scores'{{.*}} [device-host-access]
  auto view = scores.accessor<float, 1>();
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'accessor' gives the memory of 'scores'{{.*}} [device-host-access]
  std::vector<float> copy(8);
  std::memcpy(copy.data(), scores.data_ptr<float>(), 8 * sizeof(float));
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'data_ptr' gives the memory of 'scores'{{.*}} [device-host-access]
  const float *q = scores.data<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'data' gives the memory of 'scores'{{.*}} [device-host-access]
  std::vector<float> values(q, q + 8);
  auto masks = torch::ones({4}, torch::kCUDA);
  bool flag = masks.data_ptr<float>()[2] > 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'data_ptr' gives the memory of 'masks', which may be on 'torch::kCUDA'{{.*}} [device-host-access]
  auto moved = torch::zeros({4}).cuda();
  float *r = moved.data_ptr<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'data_ptr' gives the memory of 'moved'{{.*}} [device-host-access]
  float sum = std::accumulate(r, r + 4, 0.0f);
  return best + first + view[0] + copy[0] + values[0] + flag + sum;
}

void danglingCopies(torch::Tensor logits, torch::Tensor boxes) {
  float *p = logits.cpu().data_ptr<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: pointer into a temporary copy: when 'logits' is on a GPU, 'logits.cpu()' is a new tensor freed at the end of the statement, and the pointer dangles (on the CPU it returns the tensor itself, so only a GPU run shows it); keep the copy in a variable [device-host-access]
  // CHECK-MESSAGES: :[[@LINE+3]]:15: note: the pointer is used here, after the copy is freed
  // CHECK-FIXES: {{^}}  auto logits_cpu = logits.cpu();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  float *p = logits_cpu.data_ptr<float>();{{$}}
  float top = p[0];
  const float *b = boxes.to(torch::kCPU).data_ptr<float>();
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: pointer into a temporary copy: when 'boxes' is on a GPU, 'boxes.to(torch::kCPU)' {{.*}} [device-host-access]
  // CHECK-FIXES: {{^}}  auto boxes_cpu = boxes.to(torch::kCPU);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  const float *b = boxes_cpu.data_ptr<float>();{{$}}
  if (top > b[0]) {
    int64_t *idx = logits.argmax().cpu().data_ptr<int64_t>();
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: pointer into a temporary copy: when 'logits.argmax()' {{.*}} [device-host-access]
    (void)idx[0];
  }
}

// Negatives.

float readHostMemory(torch::Device device, torch::Tensor any) {
  auto host = torch::rand({8});                 // created on the CPU
  float *p = host.data_ptr<float>();
  float a = p[0];
  auto onDevice = torch::rand({8}, torch::device(device));
  auto bound = onDevice.cpu();                  // a named CPU copy
  float *q = bound.data_ptr<float>();
  float b = q[1];
  float c = onDevice.item<float>();             // item() copies one value
  float d = onDevice.sum().item<float>();
  auto kept = onDevice.to(torch::kCPU).contiguous();
  float e = kept.data_ptr<float>()[0];
  float *dev = onDevice.data_ptr<float>();      // passed on, not read here
  auto wrapped = torch::from_blob(dev, {8}, torch::device(device));
  float f = *any.cpu().data_ptr<float>();       // used within the statement
  void *raw = onDevice.data_ptr();              // never read on the host
  auto cpuCopy = torch::zeros({8}).cpu();       // a CPU tensor: cpu() is itself
  float *g = cpuCopy.cpu().data_ptr<float>();
  float h = g[0];
  return a + b + c + d + e + f + h + wrapped.numel() + (raw != nullptr);
}
