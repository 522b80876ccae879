#include <torch/torch.h>

// A tensor created on the CPU and copied to the device, once per step.
void train(torch::nn::Linear model, torch::optim::SGD &optimizer,
           torch::Device device, int64_t steps, int64_t batch) {
  for (int64_t step = 0; step < steps; ++step) {
    auto x = torch::ones({batch, 4}).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: tensor created on the CPU and copied to the device by 'to' on every iteration: create it on the device, in the factory's options (a performance problem) [device-factory-then-to]
    // CHECK-FIXES: {{^}}    auto x = torch::ones({batch, 4}, torch::device(device));{{$}}
    auto half = torch::zeros({batch, 4}, torch::kHalf).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: tensor created on the CPU and copied to the device by 'to' on every iteration{{.*}} [device-factory-then-to]
    // CHECK-FIXES: {{^}}    auto half = torch::zeros({batch, 4}, torch::dtype(torch::kHalf).device(device));{{$}}
    auto smooth = torch::full({batch}, 0.9, torch::dtype(torch::kFloat)).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: tensor created on the CPU{{.*}} [device-factory-then-to]
    // CHECK-FIXES: {{^}}    auto smooth = torch::full({batch}, 0.9, torch::dtype(torch::kFloat).device(device));{{$}}
    auto longs = torch::TensorOptions().dtype(torch::kLong);
    auto target = torch::zeros({batch}, longs).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: tensor created on the CPU{{.*}} [device-factory-then-to]
    // CHECK-FIXES: {{^}}    auto target = torch::zeros({batch}, longs.device(device));{{$}}
    auto order = torch::arange(batch).cuda();
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: tensor created on the CPU and copied to the device by 'cuda' on every iteration{{.*}} [device-factory-then-to]
    // CHECK-FIXES: {{^}}    auto order = torch::arange(batch, torch::device(torch::kCUDA));{{$}}
    auto filled = torch::empty({batch}).fill_(0.5).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: tensor created on the CPU{{.*}} [device-factory-then-to]
    // CHECK-FIXES: {{^}}    auto filled = torch::empty({batch}, torch::device(device)).fill_(0.5);{{$}}
    auto id = torch::eye(4)
                  .to(device);
    // CHECK-MESSAGES: :[[@LINE-2]]:15: warning: tensor created on the CPU{{.*}} [device-factory-then-to]
    // CHECK-FIXES: {{^}}    auto id = torch::eye(4, torch::device(device));{{$}}

    // Random numbers, and values a device's kernel may round otherwise:
    // the edit is on a note (--fix-notes), not the warning (--fix).
    auto noise = torch::randn({batch, 100, 1, 1}).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: tensor created on the CPU{{.*}} [device-factory-then-to]
    // CHECK-FIXES: {{^}}    auto noise = torch::randn({batch, 100, 1, 1}).to(device);{{$}}
    auto real = torch::empty(batch).uniform_(0.8, 1.0).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: tensor created on the CPU{{.*}} [device-factory-then-to]
    // CHECK-FIXES: {{^}}    auto real = torch::empty(batch).uniform_(0.8, 1.0).to(device);{{$}}
    auto grid = torch::linspace(0, 1, 5).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: tensor created on the CPU{{.*}} [device-factory-then-to]
    // CHECK-FIXES: {{^}}    auto grid = torch::linspace(0, 1, 5).to(device);{{$}}

    // Options spelled by a macro: no edit.
#define HALF_OPTIONS torch::dtype(torch::kHalf)
    auto spelled = torch::ones({batch}, HALF_OPTIONS).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: tensor created on the CPU{{.*}} [device-factory-then-to]
    // CHECK-FIXES: {{^}}    auto spelled = torch::ones({batch}, HALF_OPTIONS).to(device);{{$}}

    // `.to(device, dtype)` converts too: no edit.
    auto eye = torch::eye(4).to(device, torch::kHalf);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: tensor created on the CPU{{.*}} [device-factory-then-to]
    // CHECK-FIXES: {{^}}    auto eye = torch::eye(4).to(device, torch::kHalf);{{$}}

    optimizer.zero_grad();
    auto loss = (model(x + half.to(torch::kFloat) + filled.unsqueeze(1) + id.sum() + eye.sum()) -
                 smooth.unsqueeze(1) + target.unsqueeze(1) + order.unsqueeze(1) + real.unsqueeze(1) +
                 noise.sum() + grid.sum() + spelled.sum())
                    .pow(2)
                    .mean();
    loss.backward();
    optimizer.step();
  }
}

// In a module's forward(): every call is a step.
struct Denoiser : torch::nn::Module {
  Denoiser() { fc = register_module("fc", torch::nn::Linear(8, 8)); }
  torch::Tensor forward(torch::Tensor x) {
    auto mask = torch::ones({8}).to(x.device());
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: tensor created on the CPU and copied to the device by 'to' on every call of forward(){{.*}} [device-factory-then-to]
    // CHECK-FIXES: {{^}}    auto mask = torch::ones({8}, torch::device(x.device()));{{$}}
    return fc(x) * mask;
  }
  torch::nn::Linear fc{nullptr};
};

// forward() defined out of line, with a fill on the way.
struct Smoother : torch::nn::Module {
  Smoother() { fc = register_module("fc", torch::nn::Linear(8, 8)); }
  torch::Tensor forward(torch::Tensor x);
  torch::nn::Linear fc{nullptr};
};
torch::Tensor Smoother::forward(torch::Tensor x) {
  auto weights = torch::empty({8}).fill_(0.125).to(x.device());
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: tensor created on the CPU and copied to the device by 'to' on every call of forward(){{.*}} [device-factory-then-to]
  // CHECK-FIXES: {{^}}  auto weights = torch::empty({8}, torch::device(x.device())).fill_(0.125);{{$}}
  return fc(x) * weights;
}

// Negatives.

void setup(torch::Device device, int64_t steps) {
  // Once, before the loop.
  auto weights = torch::ones({10}).to(device);
  auto bias = torch::zeros({10}).cuda();
  for (int64_t step = 0; step < steps; ++step) {
    // Once per epoch: the loop runs the step loop below.
    auto hidden = torch::zeros({2, 4}).to(device);
    for (int64_t batch = 0; batch < 8; ++batch) {
      hidden = hidden.detach() + weights.sum();
      hidden.sum().backward();
    }
    // Every 100th step only.
    if (step % 100 == 0) {
      auto probe = torch::randn({4}).to(device);
      std::cout << (probe * weights + bias).sum().item<float>() << '\n';
    }
    // Host data crosses anyway: torch::tensor fills a CPU tensor even when
    // given a device.
    auto lookup = torch::tensor({1.0, 2.0, 3.0}).to(device);
    // Changed on the host before the move: the host copy is intended.
    auto onehot = torch::zeros({10}).index_put_({step % 10}, 1).to(device);
    float host[4] = {1, 2, 3, 4};
    auto wrapped = torch::from_blob(host, {4}).to(device);
    // On the device already, to the CPU, or a dtype only.
    auto there = torch::ones({4}, device).to(device);
    auto back = torch::ones({4}).to(torch::kCPU);
    auto wide = torch::ones({4}).to(torch::kDouble);
    // A leaf that requires grad: device-mid-graph-to's.
    auto leaf = torch::randn({4}, torch::requires_grad()).to(device);
    weights += (lookup.sum() + onehot.sum() + wrapped.sum() + there.sum() +
                back.sum() + wide.sum() + leaf.sum()).to(device);
  }
}

int main() {
  auto device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  torch::nn::Linear model(4, 1);
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  train(model, optimizer, device, 10, 8);
  auto denoiser = std::make_shared<Denoiser>();
  denoiser->to(device);
  std::cout << denoiser->forward(torch::randn({2, 8}, device)) << '\n';
  auto smoother = std::make_shared<Smoother>();
  smoother->to(device);
  std::cout << smoother->forward(torch::randn({2, 8}, device)) << '\n';
  setup(device, 10);
}
