#include <torch/torch.h>
#include <iostream>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

torch::Device pickDevice() {
  return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
}

// A helper and a method the training loop calls on every step.
float batchAccuracy(const torch::Tensor &out, const torch::Tensor &y) {
  return (out.argmax(1) == y).sum().item<float>() / y.size(0);
  // CHECK-MESSAGES: :[[@LINE-1]]:37: warning: 'item' makes the host wait for the device on every iteration of this loop: one device-host synchronisation per step, during which the GPU queue drains (a performance cost, not an error); read the value every k steps or once after the loop [device-sync-in-loop]
  // CHECK-MESSAGES: :[[@LINE+51]]:5: note: 'batchAccuracy' runs it, called on every iteration of the loop
}

struct Meter {
  void update(const torch::Tensor &loss) { total += loss.item<double>(); }
  // CHECK-MESSAGES: :[[@LINE-1]]:58: warning: 'item' makes the host wait {{.*}} [device-sync-in-loop]
  // CHECK-MESSAGES: :[[@LINE+46]]:11: note: 'update' runs it, called on every iteration of the loop
  double total = 0;
};

// Periodic inside the helper: not every step.
struct Logger {
  void maybeLog(int step, const torch::Tensor &loss) {
    if (step % every == 0)
      std::cout << loss.item<float>() << "\n";
  }
  int every = 100;
};

void train(std::shared_ptr<Net> net, torch::optim::Optimizer &opt,
           Meter &meter, Logger &logger, bool verbose) {
  torch::Device device = pickDevice();
  double seen = 0;
  auto record = [&](const torch::Tensor &l) { seen += l.item<double>(); };
  // CHECK-MESSAGES: :[[@LINE-1]]:57: warning: 'item' makes the host wait {{.*}} [device-sync-in-loop]
  // CHECK-MESSAGES: :[[@LINE+28]]:5: note: the lambda runs it, called on every iteration of the loop
  for (int step = 0; step < 1000; ++step) {
    auto x = torch::randn({8, 4}, device);
    auto y = torch::randint(0, 2, {8}, torch::TensorOptions(device).dtype(torch::kLong));
    opt.zero_grad();
    auto out = net->forward(x);
    auto loss = torch::nll_loss(torch::log_softmax(out, 1), y);
    loss.backward();
    opt.step();
    float value = loss.item<float>();
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'item' makes the host wait {{.*}} [device-sync-in-loop]
    auto labels = y.to(torch::kCPU); // the queue is drained already
    auto scores = out.softmax(1).cpu();
    // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 'cpu' makes the host wait {{.*}} [device-sync-in-loop]
    auto top = out.argmax(1).to(torch::kCPU);
    // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: 'to' makes the host wait {{.*}} [device-sync-in-loop]
    x.mul_(2);
    torch::cuda::synchronize();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'synchronize' makes the host wait for the device on every iteration of this loop: one device-host synchronisation per step, during which the GPU queue drains (a performance cost, not an error); synchronise once after the loop [device-sync-in-loop]
    std::cout << loss * 2 << "\n";
    // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'operator<<' makes the host wait {{.*}} [device-sync-in-loop]
    auto ones = (y == 1).nonzero();
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 'nonzero' makes the host wait {{.*}} [device-sync-in-loop]
    if (out.isnan().any().item<bool>())
      // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'item' makes the host wait {{.*}} [device-sync-in-loop]
      break;
    batchAccuracy(out, y);
    meter.update(loss.detach() * 2);
    record(loss.mean());
    if (verbose) // the same on every iteration
      std::cout << loss.mean().item<float>() << "\n";
      // CHECK-MESSAGES: :[[@LINE-1]]:32: warning: 'item' makes the host wait {{.*}} [device-sync-in-loop]
    bool same = out.equal(out.detach() + 0);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'equal' makes the host wait {{.*}} [device-sync-in-loop]

    // Not on every step.
    if (step % 100 == 0)
      std::cout << loss.item<float>() << "\n";
    if (step > 0 && step % 100 == 0)
      std::cout << loss.item<float>() << "\n";
    logger.maybeLog(step, loss);
    if (value > 10.0f)
      std::cout << out.sum().item<float>() << "\n";
    // On the CPU: no device to wait for.
    int64_t pick = torch::randint(0, 10, {1}).item<int64_t>();
    auto host = torch::zeros({3}).cpu();
    // To the device: no wait for the host.
    auto moved = x.to(device);
    (void)scores, (void)labels, (void)top, (void)ones, (void)same, (void)pick,
        (void)host, (void)moved;
  }
  torch::cuda::synchronize(); // once, after the loop
}

// The loss read once per epoch, in a loop that runs whole step loops.
void epochs(std::shared_ptr<Net> net, torch::optim::Optimizer &opt) {
  torch::Device device = pickDevice();
  for (int epoch = 0; epoch < 10; ++epoch) {
    auto running = torch::zeros({}, device);
    for (int step = 0; step < 100; ++step) {
      opt.zero_grad();
      auto loss = net->forward(torch::randn({8, 4}, device)).sum();
      loss.backward();
      opt.step();
      running += loss.detach();
    }
    std::cout << running.item<float>() << "\n";
  }
}

// A loop that queues no device work: the first read drains the queue, the
// others wait for nothing.
void perClass(const torch::Tensor &correct) {
  for (int c = 0; c < 10; ++c)
    std::cout << correct[c].item<float>() << "\n";
}

// Parameters saved one by one: a copy each, no work queued between them.
void save(std::shared_ptr<Net> net) {
  for (const auto &p : net->named_parameters())
    std::cout << p.key() << p.value().to(torch::kCPU).sizes() << "\n";
}

torch::Tensor sampleOnHost() { return torch::rand({4}); }

void hostSamples(std::shared_ptr<Net> net, torch::Device device) {
  for (int i = 0; i < 10; ++i) {
    auto y = net->forward(torch::randn({2, 4}, device));
    float v = sampleOnHost().max().item<float>(); // a CPU tensor
    (void)y, (void)v;
  }
}
