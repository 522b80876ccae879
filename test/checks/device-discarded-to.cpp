#include <torch/torch.h>

struct Trainer {
  torch::Tensor state;
  torch::Device device{torch::kCPU};

  void moveState() {
    state.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'to' is discarded: it returns a new tensor and leaves 'state' unchanged, on its current device [device-discarded-to]
    // CHECK-FIXES: {{^}}    state = state.to(device);{{$}}
  }

  void moveStateThroughThis() {
    this->state.cuda();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'cuda' is discarded: it returns a new tensor and leaves 'this->state' unchanged, on its current device [device-discarded-to]
    // CHECK-FIXES: {{^}}    this->state = this->state.cuda();{{$}}
  }
};

torch::Tensor discardedThenUsed(torch::Device device) {
  auto image = torch::rand({3, 224, 224});
  image.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: result of 'to' is discarded: it returns a new tensor and leaves 'image' unchanged, on its current device [device-discarded-to]
  // CHECK-MESSAGES: :[[@LINE+2]]:10: note: 'image' is used here, still where it was before the discarded 'to'
  // CHECK-FIXES: {{^}}  image = image.to(device);{{$}}
  return image * 2;
}

// The note names the nearest use after the call in execution order: in a
// loop body, the one below it, not the one above that runs on the next pass.
torch::Tensor discardedInALoop(torch::Tensor targets, torch::Device device) {
  torch::Tensor total;
  for (int step = 0; step < 3; ++step) {
    auto before = targets * 2;
    targets.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'to' is discarded: it returns a new tensor and leaves 'targets' unchanged, on its current device [device-discarded-to]
    // CHECK-MESSAGES: :[[@LINE+2]]:13: note: 'targets' is used here, still where it was before the discarded 'to'
    // CHECK-FIXES: {{^}}    targets = targets.to(device);{{$}}
    total = targets + before;
  }
  return total;
}

// Used only above the call: on the next pass, which the note says.
void discardedAtTheEndOfALoop(torch::Tensor targets, torch::Device device) {
  for (int step = 0; step < 3; ++step) {
    auto loss = targets.sum();
    targets.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'to' is discarded: {{.*}} [device-discarded-to]
    // CHECK-MESSAGES: :[[@LINE-3]]:17: note: 'targets' is used here on the loop's next pass, still where it was before the discarded 'to'
    // CHECK-FIXES: {{^}}    targets = targets.to(device);{{$}}
  }
}

void discardedForms(torch::Tensor x, const torch::Tensor &frozen,
                    std::vector<torch::Tensor> &batch) {
  x.cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: result of 'cpu' is discarded: {{.*}} [device-discarded-to]
  // CHECK-FIXES: {{^}}  x = x.cpu();{{$}}
  x.to(torch::kCUDA, torch::kHalf);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: result of 'to' is discarded: {{.*}} [device-discarded-to]
  // CHECK-FIXES: {{^}}  x = x.to(torch::kCUDA, torch::kHalf);{{$}}
  x.to(torch::kFloat16);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: result of 'to' is discarded: {{.*}} [device-discarded-to]
  x.toType(torch::kDouble);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: result of 'toType' is discarded: {{.*}} [device-discarded-to]
  x.type_as(frozen);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: result of 'type_as' is discarded: {{.*}} [device-discarded-to]

  // A const reference cannot be assigned: no fix-it.
  frozen.to(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: result of 'to' is discarded: it returns a new tensor and leaves 'frozen' unchanged, on its current device [device-discarded-to]
  // CHECK-FIXES: {{^}}  frozen.to(torch::kCUDA);{{$}}

  // Not a plain name: warned, no fix-it.
  batch[0].to(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: result of 'to' is discarded: it returns a new tensor and leaves 'batch[0]' unchanged, on its current device [device-discarded-to]
  // CHECK-FIXES: {{^}}  batch[0].to(torch::kCUDA);{{$}}

  for (auto &t : batch)
    t.to(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'to' is discarded: {{.*}} [device-discarded-to]
  // CHECK-FIXES: {{^}}    t = t.to(torch::kCUDA);{{$}}

  if (x.defined())
    x.to(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'to' is discarded: {{.*}} [device-discarded-to]
  else
    x.cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: result of 'cuda' is discarded: {{.*}} [device-discarded-to]

  torch::zeros({2}).to(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: result of 'to' is discarded: it returns a new tensor and leaves 'torch::zeros({2})' unchanged, on its current device [device-discarded-to]
}

// Negative cases: none of these is a finding.

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::nn::Linear fc{nullptr};
};

torch::Tensor usedResults(torch::Tensor x, torch::Device device) {
  auto net = std::make_shared<Net>();
  net->to(device);               // Module::to moves in place.
  net->fc->to(torch::kCUDA);     // So does a submodule's.
  (void)x.to(device);            // Explicitly discarded.
  static_cast<void>(x.cuda());   // Explicitly discarded.
  x = x.to(device);              // Assigned.
  auto y = x.to(torch::kFloat);  // Initializes.
  torch::Tensor z(x.cpu());      // Constructs.
  std::vector<torch::Tensor> v;
  v.push_back(x.to(device));     // Passed on.
  if (x.to(device).defined()) {} // Used in a condition.
  x.to(device).add_(1);          // Chained: the in-place op is the statement.
  x.add_(1);                     // In-place ops are not conversions.
  return y.to(device) + z;       // Returned.
}

auto lambdaResult(torch::Tensor x) {
  return [x] { return x.to(torch::kCUDA); }();
}
