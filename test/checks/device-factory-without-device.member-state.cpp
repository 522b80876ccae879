#include <torch/torch.h>

// What a class keeps in its fields across methods: a tensor created without
// a device in the constructor (or in any method) meets the device tensors
// another method is given.

class LossMeter {
public:
  LossMeter() : total_(torch::zeros({1})) {}
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: tensor created without a device is on the CPU, and meets a tensor on 'device' (which may be a GPU) in 'operator+=' [device-factory-without-device]
  void add(const torch::Tensor &loss) { total_ += loss.detach(); }
  // CHECK-MESSAGES: :[[@LINE-1]]:41: note: it meets 'loss.detach()' here: LibTorch throws 'Expected all tensors to be on the same device' when 'device' is not the CPU
  // CHECK-MESSAGES: :[[@LINE+27]]:5: note: 'add' is called here with 'loss' on 'device' (which may be a GPU)
private:
  torch::Tensor total_;
};

// A map of named sums, filled through an iterator.
class MetricSums {
public:
  void add(const std::string &name, const torch::Tensor &value) {
    auto it = sums_.find(name);
    if (it == sums_.end())
      it = sums_.emplace(name, torch::zeros({1})).first;
    // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: tensor created without a device is on the CPU, and meets a tensor on 'device' (which may be a GPU) in 'operator+=' [device-factory-without-device]
    it->second += value;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: note: it meets 'value' here{{.*}}
    // CHECK-MESSAGES: :[[@LINE+13]]:5: note: 'add' is called here with 'loss' on 'device' (which may be a GPU)
  }

private:
  std::map<std::string, torch::Tensor> sums_;
};

void train(torch::Device device, LossMeter &meter, MetricSums &sums) {
  auto x = torch::randn({4, 3}).to(device);
  auto w = torch::randn({3, 1}).to(device);
  for (int step = 0; step < 10; ++step) {
    auto loss = x.mm(w).pow(2).mean();
    meter.add(loss);
    sums.add("loss", loss);
  }
}

// Not findings: fields created with the device they are given, fields that a
// method reassigns from what it is given, fields assigned from outside the
// class, and a meter that is only ever given CPU tensors.
class DeviceAwareMeter {
public:
  explicit DeviceAwareMeter(torch::Device device)
      : total_(torch::zeros({1}, torch::device(device))) {}
  void add(const torch::Tensor &loss) { total_ += loss.detach(); }

private:
  torch::Tensor total_;
};

class FollowsFirstValue {
public:
  FollowsFirstValue() : total_(torch::zeros({1})) {}
  void reset(const torch::Tensor &like) { total_ = torch::zeros({1}, like.options()); }
  void add(const torch::Tensor &loss) { total_ += loss; }

private:
  torch::Tensor total_;
};

struct PublicSum {
  torch::Tensor total = torch::zeros({1});
  void add(const torch::Tensor &loss) { total += loss; }
};

class CpuOnlyMeter {
public:
  CpuOnlyMeter() : total_(torch::zeros({1})) {}
  void add(const torch::Tensor &loss) { total_ += loss; }

private:
  torch::Tensor total_;
};

void evaluate(torch::Device device, DeviceAwareMeter &aware,
              FollowsFirstValue &follows, PublicSum &sum, CpuOnlyMeter &cpu) {
  auto loss = torch::randn({1}).to(device);
  aware.add(loss);
  follows.add(loss);
  sum.total = torch::zeros({1}, torch::device(device));
  sum.add(loss);
  cpu.add(torch::randn({1}));
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  LossMeter meter;
  MetricSums sums;
  train(device, meter, sums);
}

// Negative: a module that overrides to() and moves its own member there.
struct GridHead : torch::nn::Module {
  GridHead() : fc(register_module("fc", torch::nn::Linear(4, 4))) {}
  void to(torch::Device device, bool non_blocking = false) override {
    torch::nn::Module::to(device, non_blocking);
    grid_ = grid_.to(device);
  }
  torch::Tensor forward(const torch::Tensor &x) { return fc(x) + grid_; }
  torch::nn::Linear fc;
  torch::Tensor grid_ = torch::linspace(0, 1, 4);
};

void gridHead(torch::Device device) {
  auto head = std::make_shared<GridHead>();
  head->to(device);
  auto y = head->forward(torch::randn({2, 4}, torch::device(device)));
}
