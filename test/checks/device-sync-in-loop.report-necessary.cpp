// FIXTURE-CONFIG: {CheckOptions: {device-sync-in-loop.ReportNecessary: true}}
#include <torch/torch.h>
#include <fstream>
#include <iostream>

// ReportNecessary: the reads whose value the iteration needs are reported
// too, and say so.

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

struct Env {
  float step(int64_t action);
  torch::Tensor observe();
};

torch::Device pickDevice() {
  return torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
}

void earlyStop(std::shared_ptr<Net> net, torch::Device device) {
  for (int step = 0; step < 100; ++step) {
    auto out = net->forward(torch::randn({8, 4}, device));
    if (out.isnan().any().item<bool>())
      // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'item' waits for the device on every iteration of this loop, and the iteration needs its value [device-sync-in-loop]
      break;
  }
}

void rollout(std::shared_ptr<Net> net, Env &env) {
  torch::Device device = pickDevice();
  std::ofstream tokens("tokens.txt");
  float reward = 0;
  for (int t = 0; t < 1000; ++t) {
    auto logits = net->forward(env.observe().to(device));
    reward += env.step(logits.argmax(-1).item<int64_t>());
    // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: 'item' waits for the device on every iteration of this loop, and the iteration needs its value; 2 more synchronisations in this loop [device-sync-in-loop]
    std::cout << logits.sum().item<float>() << "\n";
    // CHECK-MESSAGES: :[[@LINE-1]]:31: note: 'item' waits for the device too
    tokens << logits.argmax().item<int64_t>() << ' ';
    // CHECK-MESSAGES: :[[@LINE-1]]:31: note: 'item' waits for the device too, and the iteration needs its value
  }
  std::cout << reward << "\n";
}

// Still quiet: the value of the previous read, a read every k steps.
void quiet(std::shared_ptr<Net> net, torch::Device device) {
  for (int step = 0; step < 100; ++step) {
    auto out = net->forward(torch::randn({8, 4}, device));
    if (step % 10 == 0 && out.sum().item<float>() > 1)
      break;
    int64_t pick = torch::randint(0, 10, {1}).item<int64_t>();
    (void)pick;
  }
}
