// FIXTURE-FIX-NOTES
#include <torch/torch.h>

// The edits on notes: created on the device, the tensor holds other random
// numbers (the device's generator) or may round otherwise (its kernels).
// They compile, and say what they change.
void sample(torch::nn::Linear generator, torch::Device device, int64_t steps,
            int64_t batch) {
  for (int64_t step = 0; step < steps; ++step) {
    auto noise = torch::randn({batch, 4}).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: tensor created on the CPU and copied to the device by 'to' on every iteration{{.*}} [device-factory-then-to]
    // CHECK-MESSAGES: :[[@LINE-2]]:18: note: created on the device, its values come from the device's random number generator, which draws other numbers from the same seed
    // CHECK-FIXES: {{^}}    auto noise = torch::randn({batch, 4}, torch::device(device));{{$}}
    auto labels = torch::empty(batch).uniform_(0.8, 1.0).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: tensor created on the CPU{{.*}} [device-factory-then-to]
    // CHECK-FIXES: {{^}}    auto labels = torch::empty(batch, torch::device(device)).uniform_(0.8, 1.0);{{$}}
    auto classes = torch::randint(10, {batch}, torch::kLong).cuda();
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: tensor created on the CPU and copied to the device by 'cuda'{{.*}} [device-factory-then-to]
    // CHECK-FIXES: {{^}}    auto classes = torch::randint(10, {batch}, torch::dtype(torch::kLong).device(torch::kCUDA));{{$}}
    auto ramp = torch::linspace(0, 1, batch).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: tensor created on the CPU{{.*}} [device-factory-then-to]
    // CHECK-MESSAGES: :[[@LINE-2]]:17: note: created on the device, its values come from the device's kernel, which may round otherwise
    // CHECK-FIXES: {{^}}    auto ramp = torch::linspace(0, 1, batch, torch::device(device));{{$}}
    auto steps01 = torch::arange(0.0, 1.0, 0.25).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: tensor created on the CPU{{.*}} [device-factory-then-to]
    // CHECK-FIXES: {{^}}    auto steps01 = torch::arange(0.0, 1.0, 0.25, torch::device(device));{{$}}
    auto out = generator(noise) * labels.unsqueeze(1) + ramp.unsqueeze(1) +
               classes.unsqueeze(1) + steps01.sum();
    std::cout << out.sum() << '\n';
  }
}

int main() {
  auto device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  torch::nn::Linear generator(4, 4);
  generator->to(device);
  sample(generator, device, 10, 8);
}
