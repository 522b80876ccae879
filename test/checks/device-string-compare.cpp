#include <torch/torch.h>
#include <iostream>
#include <string>

// A device compared through its string form, where the comparison reads the
// printing call itself: a fix-it.
void direct(const torch::Tensor &t, const torch::Device &d) {
  if (t.device().str() == "cuda") {}
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: device compared through its string form: a tensor's device on a GPU carries its index and prints as "cuda:0", so this is never true for a tensor on a GPU; use 't.is_cuda()' [device-string-compare]
  // CHECK-FIXES: {{^}}  if (t.is_cuda()) {}{{$}}
  if (t.device().str() != "cuda") {}
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: {{.*}}; use '!t.is_cuda()' [device-string-compare]
  // CHECK-FIXES: {{^}}  if (!t.is_cuda()) {}{{$}}
  if (d.str() == "cuda") {}
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: device compared through its string form: a device with an index prints it ("cuda:0"): this is true only for a device without one; use 'd.is_cuda()' [device-string-compare]
  // CHECK-FIXES: {{^}}  if (d.is_cuda()) {}{{$}}
  if (d.str() == "cuda:0") {}
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: device compared through its string form: this is true on "cuda:0" only: on another device ("cuda:1") the same code takes the other branch; use 'd == torch::Device("cuda:0")' [device-string-compare]
  // CHECK-FIXES: {{^}}  if (d == torch::Device("cuda:0")) {}{{$}}
  if ("cuda:1" != d.str()) {}
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: {{.*}}; use 'd != torch::Device("cuda:1")' [device-string-compare]
  // CHECK-FIXES: {{^}}  if (d != torch::Device("cuda:1")) {}{{$}}
  if (c10::DeviceTypeName(d.type()) == "cuda") {}
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: device compared through its string form: 'DeviceTypeName()' spells the type "CUDA" here: this is never true; use 'd.type() == torch::kCUDA' [device-string-compare]
  // CHECK-FIXES: {{^}}  if (d.type() == torch::kCUDA) {}{{$}}
  if (c10::DeviceTypeName(t.device().type()) == "CUDA") {}
  // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: device compared through its string form: 'DeviceTypeName()' spells the type "CUDA" by default and "cuda" when asked for lower case; use 't.device().type() == torch::kCUDA' [device-string-compare]
  // CHECK-FIXES: {{^}}  if (t.device().type() == torch::kCUDA) {}{{$}}
  if (c10::DeviceTypeName(d.type(), /*lower_case=*/true) == "CUDA") {}
  // CHECK-MESSAGES: :[[@LINE-1]]:58: warning: device compared through its string form: 'DeviceTypeName()' spells the type "cuda" here: this is never true; use 'd.type() == torch::kCUDA' [device-string-compare]
  // CHECK-FIXES: {{^}}  if (d.type() == torch::kCUDA) {}{{$}}
  if (t.device().str().find("cuda") != std::string::npos) {}
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: device compared through its string form: its type is tested by searching how it prints; use 't.is_cuda()' [device-string-compare]
  // CHECK-FIXES: {{^}}  if (t.is_cuda()) {}{{$}}
  if (d.str().find("cuda") == std::string::npos) {}
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: {{.*}}; use '!d.is_cuda()' [device-string-compare]
  // CHECK-FIXES: {{^}}  if (!d.is_cuda()) {}{{$}}
  if (d.str().rfind("cuda", 0) == 0) {}
  // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: {{.*}}; use 'd.is_cuda()' [device-string-compare]
  // CHECK-FIXES: {{^}}  if (d.is_cuda()) {}{{$}}
  bool same = d.str().compare("cuda:0") == 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: device compared through its string form: this is true on "cuda:0" only{{.*}}; use 'd == torch::Device("cuda:0")' [device-string-compare]
  // CHECK-FIXES: {{^}}  bool same = d == torch::Device("cuda:0");{{$}}
  if (d.str() == "mps") {}
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: {{.*}}; use 'd.is_mps()' [device-string-compare]
  // CHECK-FIXES: {{^}}  if (d.is_mps()) {}{{$}}
  if (t.device().str() == "CUDA") {}
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: device compared through its string form: a device prints its type in lower case ("cuda:0"): this is never true; use 't.is_cuda()' [device-string-compare]
  // CHECK-FIXES: {{^}}  if (t.is_cuda()) {}{{$}}
  (void)same;
}

// The string reaches the comparison through a variable, a helper's result, a
// parameter or a field: a note says where it was printed, and no fix-it
// rewrites code that may be shared.
std::string deviceName(const torch::Tensor &t) { return t.device().str(); }

bool isGpuName(const std::string &where) {
  return where == "cuda";
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: device compared through its string form: a tensor's device on a GPU carries its index {{.*}}; compare the device or its type instead [device-string-compare]
}

struct RunInfo {
  std::string device;
  int epoch;
};

void indirect(const torch::Tensor &t, torch::nn::Linear &fc) {
  std::string name = t.device().str();
  if (name == "cuda") {}
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: device compared through its string form: a tensor's device on a GPU {{.*}}; compare the device or its type instead [device-string-compare]
  if (deviceName(t) == "cuda:0") {}
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: device compared through its string form: this is true on "cuda:0" only{{.*}}; compare the device or its type instead [device-string-compare]
  for (const auto &p : fc->named_parameters())
    isGpuName(p.value().device().str());
  RunInfo info{t.device().str(), 1};
  if (info.device == "cuda") {}
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: device compared through its string form: a tensor's device on a GPU {{.*}}; compare the device or its type instead [device-string-compare]
  std::string kind = c10::DeviceTypeName(t.device().type());
  if (kind == "cuda") {}
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: device compared through its string form: 'DeviceTypeName()' spells the type "CUDA" here: this is never true; compare the device or its type instead [device-string-compare]
}

// Negatives.
std::string configuredDevice(int argc, char **argv) {
  return argc > 1 ? argv[1] : "cpu";
}

#define ON_CUDA(d) ((d).str() == "cuda")

void negatives(int argc, char **argv, const torch::Tensor &t,
               const torch::Device &d) {
  std::string arg = argc > 1 ? argv[1] : "cpu";
  if (arg == "cuda") {}                         // a command-line word
  if (configuredDevice(argc, argv) == "cuda") {} // a configured name
  if (t.device().str() == "cpu") {}             // the CPU prints as "cpu"
  if (d.str() != "cpu") {}
  if (c10::DeviceTypeName(d.type()) == "CPU") {}
  if (t.device().str().find("cpu") != std::string::npos) {}
  if (d.is_cuda() || d.type() == torch::kCUDA) {} // the device itself
  if (d == torch::Device("cuda:0")) {}
  std::cout << d.str() << " " << t.device() << "\n"; // printed, not compared
  if (t.device().str() == deviceName(t)) {}    // two devices' names
  if (d.str() == "model") {}                   // not a device's name
  std::string mixed = argc > 2 ? t.device().str() : std::string(argv[2]);
  if (mixed == "cuda") {}                      // a device's name or a word
  std::string label = t.device().str();
  label += "-run";
  if (label == "cuda") {}                      // changed after printing
  if (ON_CUDA(d)) {}                           // written in a macro
}
