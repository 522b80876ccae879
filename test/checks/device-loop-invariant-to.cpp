#include <torch/torch.h>

// A per-step .to() of a tensor that does not change inside the loop.
void perStep(torch::Device device, torch::Tensor x, torch::Tensor weights,
             std::vector<torch::data::Example<>> &batches) {
  auto mean = torch::tensor({0.5, 0.5, 0.5});
  for (int step = 0; step < 100; ++step) {
    auto y = x.to(device) - mean.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'x' does not change inside the loop, yet 'to' copies it on every iteration: a needless copy between devices per step (a performance problem); move it once before the loop [device-loop-invariant-to]
    // CHECK-MESSAGES: :[[@LINE-2]]:29: warning: 'mean' does not change inside the loop, yet 'to' copies it {{.*}} [device-loop-invariant-to]
  }
  for (auto &batch : batches) {
    auto out = batch.data.to(device) * weights.to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: 'weights' does not change inside the loop, yet 'to' {{.*}} [device-loop-invariant-to]
  }
  int i = 0;
  while (i++ < 10) {
    auto scale = mean.cuda();
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'mean' does not change inside the loop, yet 'cuda' {{.*}} [device-loop-invariant-to]
  }
  do {
    auto w = weights.to(torch::kCUDA, torch::kHalf);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'weights' does not change inside the loop, yet 'to' {{.*}} [device-loop-invariant-to]
  } while (--i > 0);
}

// Negatives.
void negatives(torch::Device device, torch::Tensor x, torch::Tensor y,
               torch::Tensor z, std::vector<torch::data::Example<>> &batches) {
  // The tensor changes in the loop: assigned, in place, through a reference.
  for (int step = 0; step < 10; ++step) {
    x = x.to(device);
    y.add_(1);
    auto n8 = y.to(device);
    z += 1;
    auto n9 = z.to(device);
  }
  // Declared inside the loop.
  for (auto &batch : batches) {
    auto data = batch.data;
    auto n10 = data.to(device);
    auto n11 = batch.target.to(device);
  }
  // A dtype change only in the loop.
  for (int step = 0; step < 10; ++step) {
    auto n12 = x.to(torch::kHalf);
  }
  // Moved once before the loop.
  auto x_dev = x.to(device);
  for (int step = 0; step < 10; ++step) {
    auto n13 = x_dev * 2;
  }
}

void refill(torch::Tensor &t);

// Changed through a non-const reference inside the loop.
void changedByCall(torch::Device device, torch::Tensor buffer) {
  for (int step = 0; step < 10; ++step) {
    refill(buffer);
    auto n14 = buffer.to(device);
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
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 'content' does not change inside the loop, yet 'to' {{.*}} [device-loop-invariant-to]
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
