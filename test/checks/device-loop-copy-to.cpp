#include <torch/torch.h>

void moveAll(std::vector<torch::Tensor> &batch, torch::Device device) {
  for (auto t : batch) {
    t = t.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 't' is a copy of the container's element: assigning the moved tensor to it leaves the container unchanged [device-loop-copy-to]
    // CHECK-MESSAGES: :[[@LINE-3]]:13: note: 't' is declared here as a copy; declare it as a reference to update the element itself
  }
  // CHECK-FIXES: {{^}}  for (auto &t : batch) {{{$}}

  for (torch::Tensor t : batch)
    t = t.cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 't' is a copy of the container's element: {{.*}} [device-loop-copy-to]
  // CHECK-FIXES: {{^}}  for (torch::Tensor &t : batch){{$}}

  for (at::Tensor input : batch) {
    if (input.defined())
      input = input.to(device, torch::kHalf);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'input' is a copy of the container's element: {{.*}} [device-loop-copy-to]
  }
  // CHECK-FIXES: {{^}}  for (at::Tensor &input : batch) {{{$}}

  std::vector<torch::Tensor> weights;
  for (auto w : weights) { w = w.to(torch::kCUDA); }
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'w' is a copy of the container's element: {{.*}} [device-loop-copy-to]
  // CHECK-FIXES: {{^}}  for (auto &w : weights) { w = w.to(torch::kCUDA); }{{$}}

  for (auto t : batch)
    t = t.cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 't' is a copy of the container's element: {{.*}} [device-loop-copy-to]
}

void constContainer(const std::vector<torch::Tensor> &batch,
                    torch::Device device) {
  // Iterating a const container: a reference could not be assigned, so there
  // is no fix-it, but the loop still moves nothing.
  for (auto t : batch)
    t = t.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 't' is a copy of the container's element: {{.*}} [device-loop-copy-to]
  // CHECK-FIXES: {{^}}  for (auto t : batch){{$}}
}

void dictionary(torch::OrderedDict<std::string, torch::Tensor> &named,
                torch::Device device) {
  for (auto item : named.values())
    item = item.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'item' is a copy of the container's element: {{.*}} [device-loop-copy-to]
}

void namedTensors(std::map<std::string, torch::Tensor> &named,
                  torch::Device device) {
  for (auto kv : named)
    kv.second = kv.second.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'kv' is a copy of the container's element: {{.*}} [device-loop-copy-to]
  // CHECK-FIXES: {{^}}  for (auto &kv : named){{$}}
  for (auto &kv : named)
    kv.second = kv.second.to(device);
}

// Negative cases.

struct Model : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x * 2; }
};

std::vector<torch::Tensor> copiesThatAreUsed(std::vector<torch::Tensor> &batch,
                                             torch::Device device) {
  std::vector<torch::Tensor> moved;
  Model model;
  for (auto t : batch) {
    t = t.to(device);       // a local copy, used below: deliberate
    moved.push_back(t);
  }
  for (auto t : batch) {
    t = t.to(device);
    auto y = model.forward(t);
  }
  for (auto &t : batch)     // a reference: the element is updated
    t = t.to(device);
  for (auto &&t : batch)
    t = t.cuda();
  for (auto t : batch) {
    auto u = t.to(device);  // not reassigned to the loop variable
    moved.push_back(u);
  }
  for (auto t : batch)
    t.add_(1);              // in-place: shares storage with the element
  for (auto t : batch) {
    auto other = torch::ones({1});
    other = other.to(device); // another variable
    moved.push_back(other);
  }
  for (size_t i = 0; i < batch.size(); ++i)
    batch[i] = batch[i].to(device);
  return moved;
}
