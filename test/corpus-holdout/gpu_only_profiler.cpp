// A quick kernel-profiling utility for the team's GPU boxes: times a convolution
// stack at several batch sizes and prints a table.
#include <torch/torch.h>

#include <chrono>
#include <cstdio>
#include <vector>

static torch::nn::Sequential conv_stack() {
  torch::nn::Sequential s;
  for (int i = 0; i < 6; ++i) {
    s->push_back(torch::nn::Conv2d(torch::nn::Conv2dOptions(64, 64, 3).padding(1)));
    s->push_back(torch::nn::ReLU());
  }
  return s;
}

static torch::Tensor make_input(int64_t batch) {
  return torch::randn({batch, 64, 56, 56}, torch::TensorOptions().device(torch::kCUDA));  // BUG(device-hardcoded): this file never checks torch::cuda::is_available(); on a machine without a GPU the tool dies here
}

static double time_forward(torch::nn::Sequential& net, const torch::Tensor& x, int iters) {
  torch::NoGradGuard no_grad;
  net->forward(x);
  torch::cuda::synchronize();
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < iters; ++i) net->forward(x);
  torch::cuda::synchronize();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / iters;
}

static torch::nn::Sequential prepared_net() {
  auto net = conv_stack();
  net->to(torch::kCUDA);  // BUG(device-hardcoded): unconditional CUDA in a file without an availability check
  net->eval();
  return net;
}

int main() {
  auto net = prepared_net();
  std::printf("%8s %12s %14s\n", "batch", "ms/iter", "images/s");
  for (int64_t batch : std::vector<int64_t>{1, 8, 32, 64}) {
    auto x = make_input(batch);
    const double ms = time_forward(net, x, 20);
    std::printf("%8lld %12.3f %14.1f\n", static_cast<long long>(batch), ms, 1000.0 * batch / ms);
  }
}
