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
  torch::optim::Adam adam({b, moved, c, d, e});
}

void ternaryLeaf() {
  auto device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto w = torch::randn({3}, torch::requires_grad()).to(device);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to' on a leaf that requires grad {{.*}} [device-mid-graph-to]
  // CHECK-FIXES: {{^}}  auto w = torch::randn({3}, torch::requires_grad().device(device));{{$}}
}

// A per-step .to() of a tensor that does not change inside the loop.
void perStep(torch::Device device, torch::Tensor x, torch::Tensor weights,
             std::vector<torch::data::Example<>> &batches) {
  auto mean = torch::tensor({0.5, 0.5, 0.5});
  for (int step = 0; step < 100; ++step) {
    auto y = x.to(device) - mean.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'x' does not change inside the loop, yet 'to' copies it on every iteration: a needless copy between devices per step (a performance problem); move it once before the loop [device-mid-graph-to]
    // CHECK-MESSAGES: :[[@LINE-2]]:29: warning: 'mean' does not change inside the loop, yet 'to' copies it {{.*}} [device-mid-graph-to]
  }
  for (auto &batch : batches) {
    auto out = batch.data.to(device) * weights.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: 'weights' does not change inside the loop, yet 'to' {{.*}} [device-mid-graph-to]
  }
  int i = 0;
  while (i++ < 10) {
    auto scale = mean.cuda();
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'mean' does not change inside the loop, yet 'cuda' {{.*}} [device-mid-graph-to]
  }
  do {
    auto w = weights.to(torch::kCUDA, torch::kHalf);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'weights' does not change inside the loop, yet 'to' {{.*}} [device-mid-graph-to]
  } while (--i > 0);
}

// Negatives.
void negatives(torch::Device device, torch::Tensor x, torch::Tensor y,
               std::vector<torch::data::Example<>> &batches) {
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
  // Per step, but the tensor changes in the loop.
  for (int step = 0; step < 10; ++step) {
    x = x.to(device);
    y.add_(1);
    auto n8 = y.to(device);
  }
  // Declared inside the loop.
  for (auto &batch : batches) {
    auto data = batch.data;
    auto n9 = data.to(device);
    auto n10 = batch.target.to(device);
  }
  // A dtype change only in the loop.
  for (int step = 0; step < 10; ++step) {
    auto n11 = x.to(torch::kHalf);
  }
  // Moved once before the loop.
  auto x_dev = x.to(device);
  for (int step = 0; step < 10; ++step) {
    auto n12 = x_dev * 2;
  }
}

// Negatives: the tensor an optimizer updates in place, and copies on some
// iterations only (the neural style transfer of prabhuomkar/pytorch-cpp
// optimises the image itself and saves it every N steps, docs/realworld.md).
void optimisedInPlace(torch::Device device, torch::Tensor content, bool log) {
  auto image = content.clone().to(device);
  torch::optim::Adam optimizer(std::vector<torch::Tensor>{image.requires_grad_(true)},
                               torch::optim::AdamOptions(1e-3));
  auto mean = torch::tensor({0.5, 0.5, 0.5});
  for (int step = 0; step < 100; ++step) {
    auto loss = (image - content.to(device)).pow(2).sum();
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 'content' does not change inside the loop, yet 'to' {{.*}} [device-mid-graph-to]
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    auto snapshot = image.to(torch::kCPU);
    if ((step + 1) % 10 == 0)
      auto saved = mean.to(torch::kCPU);
    auto shown = log ? mean.to(device) : mean;
    log && mean.to(device).defined();
    switch (step) {
    case 50:
      mean.to(device);
      break;
    }
  }
}
