// FIXTURE-HEADERS: standin
#include <torch/torch.h>
#include <string>

// The comparisons alone, on the stand-in header: also in a program that
// never names an accelerator, since the string is wrong on any machine.
bool onGpu(const torch::Device &d) {
  return d.str() == "cuda";
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: device compared through its string form: a device with an index prints it ("cuda:0"): this is true only for a device without one; use 'd.is_cuda()' [device-string-compare]
}

bool typeIs(const torch::Device &d) {
  return c10::DeviceTypeName(d.type()) == "cuda";
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: device compared through its string form: 'DeviceTypeName()' spells the type "CUDA" here: this is never true; use 'd.type() == torch::kCUDA' [device-string-compare]
}
