#include <torch/torch.h>

// Positives: a tensor moved to (or computed on) the CPU meets one that may be
// on a GPU. Factories and data-loader targets are other rules' root causes.

torch::Tensor toHost(const torch::Tensor &t) { return t.cpu(); }

void positives(torch::Device device, torch::Tensor x, torch::Tensor w,
               torch::Tensor mask, std::vector<torch::data::Example<>> &batches) {
  auto x_dev = x.to(device);
  auto host = x_dev.cpu();

  auto a = host + x_dev;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'host' on the CPU meets 'x_dev' on 'device' (which may be a GPU) in 'operator+': LibTorch throws 'Expected all tensors to be on the same device' [device-mismatch]
  // CHECK-MESSAGES: :[[@LINE-4]]:15: note: 'host' is on the CPU since here
  auto b = torch::mm(x_dev, w.to(torch::kCPU));
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'w.to(torch::kCPU)' on the CPU meets 'x_dev' on 'device' (which may be a GPU) in 'mm': {{.*}} [device-mismatch]
  auto c = torch::cat({x_dev, w.cpu()});
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'w.cpu()' on the CPU meets 'x_dev' on {{.*}} in 'cat': {{.*}} [device-mismatch]
  auto d = x_dev.matmul(host);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'host' on the CPU meets 'x_dev' {{.*}} in 'matmul': {{.*}} [device-mismatch]
  auto e = torch::mse_loss(x_dev, host);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'host' on the CPU meets 'x_dev' {{.*}} in 'mse_loss': {{.*}} [device-mismatch]
  auto f = torch::stack({host, x_dev});
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'host' on the CPU meets 'x_dev' {{.*}} in 'stack': {{.*}} [device-mismatch]
  auto g = toHost(x_dev) * x_dev;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'toHost(x_dev)' on the CPU meets 'x_dev' {{.*}} in 'operator*': {{.*}} [device-mismatch]
  host.mul_(x_dev);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'host' on the CPU meets 'x_dev' {{.*}} in 'mul_': {{.*}} [device-mismatch]

  // The 0-dim exemption covers inputs only: the output of += is the CPU tensor.
  auto total = x_dev.sum().cpu();
  total += x_dev.sum();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'total' on the CPU meets 'x_dev.sum()' {{.*}} in 'operator+=': {{.*}} [device-mismatch]

  for (auto &batch : batches) {
    auto out = batch.data.to(device);
    auto masked = batch.data * out;
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'batch.data' on the CPU meets 'out' {{.*}} in 'operator*': {{.*}} [device-mismatch]
  }

  auto h = torch::bmm(x_dev.cpu(), x_dev);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'x_dev.cpu()' on the CPU meets 'x_dev' {{.*}} in 'bmm': {{.*}} [device-mismatch]
  auto i = x_dev.gt(host);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'host' on the CPU meets 'x_dev' {{.*}} in 'gt': {{.*}} [device-mismatch]
}

void availableTernary(torch::Tensor x) {
  auto device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto x_dev = x.to(device);
  auto y = x_dev - x.cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'x.cpu()' on the CPU meets 'x_dev' on 'device' (which may be a GPU) in 'operator-': {{.*}} [device-mismatch]
}

void ifForm(torch::Tensor x) {
  torch::Device device(torch::kCPU);
  if (torch::cuda::is_available())
    device = torch::kCUDA;
  auto x_dev = torch::randn({2, 3}, torch::device(device));
  auto y = x_dev / x.cpu();
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'x.cpu()' on the CPU meets 'x_dev' on 'device' (which may be a GPU) in 'operator/': {{.*}} [device-mismatch]
}

// Indexing with tensors keeps the dimensions: the result is no 0-dim scalar.
void indexedRows(torch::Device device, torch::Tensor table, torch::Tensor idx) {
  auto rows = table.to(device).index({idx.cpu()});
  auto stats = rows.mean(0).cpu();
  auto centered = rows - stats;
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'stats' on the CPU meets 'rows' on 'device' (which may be a GPU) in 'operator-': {{.*}} [device-mismatch]
  // An integer index may leave a 0-dim tensor: quiet.
  auto first = rows.cpu()[0];
  auto n1 = rows - first;
  auto n2 = rows - rows.cpu().select(0, 1);
  auto n3 = rows - rows.cpu().index({0});
  // A quantile of every element is 0-dim.
  auto threshold = rows.norm(2, 1).quantile(0.9).cpu();
  auto n4 = rows.norm(2, 1) < threshold;
}

// A conflict throws; which side its fix moves is open, so what the op
// returns is unknown and nothing downstream is reported.
void noCascade(torch::Device device, torch::Tensor x, torch::Tensor y) {
  auto host = x.to(device).cpu();
  auto t = torch::ones({4}, torch::device(device));
  auto scaled = host / t;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'host' on the CPU meets 't' on 'device' (which may be a GPU) in 'operator/': {{.*}} [device-mismatch]
  auto loss = torch::mse_loss(scaled, y.cpu());
}

// `opt.step(closure)` runs the closure there: it sees its captures as they
// are at the step.
void stepClosure(torch::Device device, torch::Tensor x) {
  auto logits = x.to(device).cpu();
  auto t = torch::zeros({1}, torch::TensorOptions().device(device).requires_grad(true));
  torch::optim::LBFGS opt({t}, torch::optim::LBFGSOptions(0.1));
  auto closure = [&]() -> torch::Tensor {
    opt.zero_grad();
    auto loss = (logits / t.exp()).sum();
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'logits' on the CPU meets 't.exp()' on 'device' (which may be a GPU) in 'operator/': {{.*}} [device-mismatch]
    // CHECK-MESSAGES: :[[@LINE-7]]:17: note: 'logits' is on the CPU since here
    // CHECK-MESSAGES: :[[@LINE-7]]:12: note: created on 'device' (which may be a GPU) here
    // CHECK-MESSAGES: :[[@LINE+4]]:3: note: 'step' runs 'closure' here
    loss.backward();
    return loss;
  };
  opt.step(closure);
  // Once the captures are on one device, the closure is quiet.
  logits = logits.to(device);
  opt.step(closure);
  // A closure nothing runs is analysed alone, its captures unknown: quiet.
  auto unused = [&]() { return logits.cpu() / t; };
}

void fromString(const std::string &flag, torch::Tensor x) {
  torch::Device device(flag);
  auto x_dev = x.to(device);
  auto y = torch::dot(x_dev, x.cpu());
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'x.cpu()' on the CPU meets 'x_dev' on 'device' (which may be a GPU) in 'dot': {{.*}} [device-mismatch]
}

// Negatives: allowed across devices, or not known to meet.
void negatives(torch::Device device, torch::Tensor x, torch::Tensor y,
               torch::Tensor idx, torch::Tensor param, bool cond) {
  auto x_dev = x.to(device);
  // A 0-dim CPU tensor is accepted as an input of element-wise ops.
  auto s = x_dev.sum().cpu();
  auto n1 = x_dev * s;
  auto n2 = s + x_dev;
  auto n3 = x_dev * torch::tensor(0.5);
  auto n4 = torch::zeros({}) + x_dev;
  // acc = acc + loss: the result is on the device.
  auto acc = x.sum().cpu();
  acc = acc + x_dev.sum();
  // CPU indices into a device tensor are moved.
  auto n5 = x_dev.index({idx.cpu()});
  x_dev.index_put_({idx.cpu()}, s);
  // copy_ crosses devices by design.
  x_dev.copy_(y.cpu());
  // Both on the CPU.
  auto n6 = x.cpu() + y.to(torch::kCPU);
  // Moved back before meeting.
  auto n7 = x_dev.cpu().to(device) + x_dev;
  // Unknown devices stay quiet.
  auto n8 = param + y.cpu();
  auto either = cond ? x_dev : x.cpu();
  auto n9 = either + x_dev;
  // item() synchronises, it does not mismatch.
  float v = x_dev.sum().item<float>() + s.item<float>();
  (void)v;
  // CPU lengths for pack_padded_sequence are required on the CPU.
  auto packed = torch::nn::utils::rnn::pack_padded_sequence(
      x_dev, idx.cpu(), /*batch_first=*/true);
  // Options that carry the device.
  auto n10 = torch::zeros({3}, x_dev.options()) + x_dev;
  auto n11 = torch::zeros_like(x_dev) + x_dev;
  // A C++ scalar.
  auto n12 = x_dev * 0.5;
}
