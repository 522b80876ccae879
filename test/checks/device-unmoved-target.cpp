#include <torch/torch.h>

struct Net : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x; }
};

using Batches = std::vector<torch::data::Example<>>;

void nllLoop(std::shared_ptr<Net> model, torch::Device device, Batches &loader) {
  model->to(device);
  for (auto &batch : loader) {
    auto out = model->forward(batch.data.to(device));
    auto loss = torch::nll_loss(out, batch.target);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'batch.target' from the data loader is still on the CPU where it meets 'out' on 'device' (which may be a GPU) in 'nll_loss': LibTorch throws 'Expected all tensors to be on the same device' [device-unmoved-target]
    // CHECK-MESSAGES: :[[@LINE-3]]:31: note: the batch's input is moved to the device here, its target is not
    // CHECK-FIXES: {{^}}    auto loss = torch::nll_loss(out, batch.target.to(device));{{$}}
  }
}

void dataLoader(std::shared_ptr<Net> model, torch::Device device) {
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("data").map(
          torch::data::transforms::Stack<>()),
      64);
  model->to(device);
  for (auto &batch : *loader) {
    auto out = model->forward(batch.data.to(device));
    auto loss = torch::nn::functional::cross_entropy(out, batch.target);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'batch.target' from the data loader {{.*}} in 'cross_entropy': {{.*}} [device-unmoved-target]
    // CHECK-FIXES: {{^}}    auto loss = torch::nn::functional::cross_entropy(out, batch.target.to(device));{{$}}
    auto pred = out.argmax(1);
    auto correct = pred.eq(batch.target).sum();
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'batch.target' from the data loader is still on the CPU where it meets 'pred' on 'device' (which may be a GPU) in 'eq': {{.*}} [device-unmoved-target]
    // CHECK-FIXES: {{^}}    auto correct = pred.eq(batch.target.to(device)).sum();{{$}}
  }
}

void lossModules(std::shared_ptr<Net> model, torch::Device device, Batches &loader) {
  torch::nn::CrossEntropyLoss criterion;
  torch::nn::MSELoss mse;
  torch::nn::NLLLoss nll;
  model->to(device);
  for (auto &batch : loader) {
    auto out = model->forward(batch.data.to(device));
    auto l1 = criterion(out, batch.target);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'batch.target' from the data loader {{.*}} in the loss 'CrossEntropyLoss': {{.*}} [device-unmoved-target]
    // CHECK-FIXES: {{^}}    auto l1 = criterion(out, batch.target.to(device));{{$}}
    auto target = batch.target;
    auto l2 = mse(out, target);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'target' from the data loader {{.*}} in the loss 'MSELoss': {{.*}} [device-unmoved-target]
    // CHECK-FIXES: {{^}}    auto l2 = mse(out, target.to(device));{{$}}
    auto l3 = nll(out, target);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'target' from the data loader {{.*}} in the loss 'NLLLoss': {{.*}} [device-unmoved-target]
    auto l4 = torch::nn::functional::cross_entropy(out, target);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'target' from the data loader {{.*}} in 'cross_entropy': {{.*}} [device-unmoved-target]
    auto l5 = torch::binary_cross_entropy_with_logits(out, batch.target);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'batch.target' from the data loader {{.*}} in 'binary_cross_entropy_with_logits': {{.*}} [device-unmoved-target]
    auto l6 = torch::smooth_l1_loss(out, batch.target);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'batch.target' from the data loader {{.*}} in 'smooth_l1_loss': {{.*}} [device-unmoved-target]
    auto m1 = out.argmax(1) == batch.target;
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'batch.target' from the data loader {{.*}} in 'operator==': {{.*}} [device-unmoved-target]
    auto m2 = out.argmax(1).ne(target);
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'target' from the data loader {{.*}} in 'ne': {{.*}} [device-unmoved-target]
  }
}

void ternaryDevice(Batches &loader) {
  auto device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  torch::nn::Linear fc(784, 10);
  fc->to(device);
  for (auto &batch : loader) {
    auto out = fc(batch.data.to(device));
    auto loss = torch::mse_loss(out, batch.target);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'batch.target' from the data loader is still on the CPU where it meets 'out' on 'device' (which may be a GPU) in 'mse_loss': {{.*}} [device-unmoved-target]
  }
}

void moveWithCuda(Batches &loader) {
  torch::nn::Linear fc(784, 10);
  for (auto &batch : loader) {
    auto out = fc(batch.data.cuda());
    auto loss = torch::l1_loss(batch.data.cuda(), batch.target);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'batch.target' from the data loader is still on the CPU where it meets 'batch.data.cuda()' on an accelerator in 'l1_loss': {{.*}} [device-unmoved-target]
  }
}

// Negatives.
void negatives(std::shared_ptr<Net> model, torch::Device device, Batches &loader) {
  torch::nn::CrossEntropyLoss criterion;
  model->to(device);
  for (auto &batch : loader) {
    auto data = batch.data.to(device);
    auto target = batch.target.to(device);
    auto out = model->forward(data);
    auto n1 = torch::nll_loss(out, target);
    auto n2 = criterion(out, batch.target.to(device));
    auto n3 = out.argmax(1).eq(batch.target.to(out.device()));
    auto n4 = torch::nn::functional::cross_entropy(out, batch.target.cuda());
    auto n5 = torch::nll_loss(out, batch.target.to(device, /*non_blocking=*/true));
    // Both on the CPU.
    auto n6 = torch::nll_loss(out.cpu(), batch.target);
    auto n7 = out.argmax(1).cpu().eq(batch.target);
    // CPU indices into a device tensor are fine.
    auto n8 = out.index({batch.target});
    // Moved before the loss.
    auto t = batch.target;
    t = t.to(device);
    auto n9 = criterion(out, t);
    // Only the size is read.
    auto n10 = batch.target.size(0);
    // A C++ scalar comparison.
    auto n11 = out.argmax(1).eq(3);
  }
}

void cpuTraining(std::shared_ptr<Net> model, Batches &loader) {
  for (auto &batch : loader) {
    auto out = model->forward(batch.data);
    auto loss = torch::nll_loss(out, batch.target);
    auto correct = out.argmax(1).eq(batch.target);
  }
}
