#include <torch/torch.h>

// A copying .to() on a leaf that requires grad returns a non-leaf.
void leaves(torch::Device device) {
  auto w = torch::randn({3, 3}, torch::requires_grad()).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to' on a leaf that requires grad returns a copy that is not a leaf: its .grad() stays undefined, and an optimizer given it throws "can't optimize a non-leaf Tensor"; on the CPU 'to' returns the leaf itself, so only a GPU run shows it [device-mid-graph-to]
  // CHECK-FIXES: {{^}}  auto w = torch::randn({3, 3}, torch::requires_grad().device(device));{{$}}
  // CHECK-MESSAGES: :[[@LINE+1]]:21: note: the optimizer is given the non-leaf 'w' here
  torch::optim::SGD sgd({w}, 0.1);
  auto b = torch::zeros({3}, torch::requires_grad()).cuda();
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'cuda' on a leaf that requires grad {{.*}} [device-mid-graph-to]
  // CHECK-FIXES: {{^}}  auto b = torch::zeros({3}, torch::requires_grad().device(torch::kCUDA));{{$}}
  auto leaf = torch::randn({3}, torch::requires_grad());
  auto moved = leaf.to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'to' on a leaf that requires grad {{.*}} [device-mid-graph-to]
  // CHECK-FIXES: {{^}}  auto moved = leaf.to(device);{{$}}
  auto c = torch::ones({2}, torch::TensorOptions().requires_grad(true)).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to' on a leaf that requires grad {{.*}} [device-mid-graph-to]
  // CHECK-FIXES: {{^}}  auto c = torch::ones({2}, torch::TensorOptions().requires_grad(true).device(device));{{$}}
  auto d = torch::empty({4}, torch::dtype(torch::kFloat).requires_grad(true)).to(torch::kCUDA);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to' on a leaf that requires grad {{.*}} [device-mid-graph-to]
  // CHECK-FIXES: {{^}}  auto d = torch::empty({4}, torch::dtype(torch::kFloat).requires_grad(true).device(torch::kCUDA));{{$}}
  auto e = torch::rand({2}, torch::requires_grad()).to(torch::Device("cuda:0"));
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to' on a leaf that requires grad {{.*}} [device-mid-graph-to]
  // CHECK-FIXES: {{^}}  auto e = torch::rand({2}, torch::requires_grad().device(torch::Device("cuda:0")));{{$}}
  // Options held in a variable take the device too.
  auto trainable = torch::TensorOptions().requires_grad(true);
  auto f = torch::zeros({3}, trainable).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to' on a leaf that requires grad {{.*}} [device-mid-graph-to]
  // CHECK-FIXES: {{^}}  auto f = torch::zeros({3}, trainable.device(device));{{$}}
  torch::optim::Adam adam({b, moved, c, d, e, f});
}

void ternaryLeaf() {
  auto device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto w = torch::randn({3}, torch::requires_grad()).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to' on a leaf that requires grad {{.*}} [device-mid-graph-to]
  // CHECK-FIXES: {{^}}  auto w = torch::randn({3}, torch::requires_grad().device(device));{{$}}
}

// Negatives.
void negatives(torch::Device device) {
  // Not a leaf that requires grad.
  auto n1 = torch::randn({3}).to(device);
  auto n2 = torch::randn({3}, torch::requires_grad(false)).to(device);
  // Created on the device.
  auto n3 = torch::randn({3}, torch::requires_grad().device(device));
  // Moved to the CPU, or a dtype change only.
  auto leaf = torch::randn({3}, torch::requires_grad());
  auto n4 = leaf.to(torch::kCPU);
  auto n5 = leaf.cpu();
  auto n6 = leaf.to(torch::kHalf);
  // Detached first.
  auto n7 = leaf.detach().to(device);
}

// A per-step copy of a loop invariant is device-loop-invariant-to's: no
// finding here.
void perStepIsAnotherRule(torch::Device device, torch::Tensor x) {
  for (int step = 0; step < 100; ++step)
    auto y = x.to(device);
}
