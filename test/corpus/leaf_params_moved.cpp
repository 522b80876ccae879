// Free-standing learnable tensors (no Module): how they are created decides whether they stay leaves.
#include <torch/torch.h>

#include <iostream>
#include <vector>

struct LinearModel {
  torch::Tensor w, b;
};

LinearModel make_buggy(int64_t in, int64_t out, torch::Device device) {
  LinearModel m;
  m.w = torch::randn({in, out}, torch::requires_grad()).to(device);  // BUG(device-mid-graph-to): .to of a requires_grad leaf returns a non-leaf; its grad never fills and SGD throws
  m.b = torch::zeros({out}, torch::TensorOptions().requires_grad(true).device(device));
  return m;
}

LinearModel make(int64_t in, int64_t out, torch::Device device) {
  LinearModel m;
  m.w = torch::randn({in, out}, torch::TensorOptions().device(device).requires_grad(true));
  m.b = torch::zeros({out}).to(device).requires_grad_();  // moved first, then marked: a leaf
  return m;
}

torch::Tensor make_scale(torch::Device device) {
  auto s = torch::ones({1});
  s.set_requires_grad(true);
  s = s.to(device);  // BUG(device-mid-graph-to): s is a requires_grad leaf; the moved copy is not
  return s;
}

torch::Tensor make_shift(torch::Device device) {
  auto t = torch::zeros({1}).to(device);
  t.set_requires_grad(true);
  return t;
}

torch::Tensor forward(const LinearModel& m, const torch::Tensor& x, torch::Device device) {
  auto h = x.to(device).matmul(m.w) + m.b;  // .to on the data path is differentiable: fine
  auto feat = h.relu().to(torch::kCPU);     // non-leaf moved mid-graph: still differentiable
  return feat.to(device).sum(1);
}

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto good = make(8, 4, device);
  auto bad = make_buggy(8, 4, device);
  auto scale = make_scale(device);
  auto shift = make_shift(device);
  auto frozen = torch::randn({4}, torch::requires_grad()).detach().to(device);  // detached first: no grad wanted

  std::vector<torch::Tensor> params = {good.w, good.b, bad.w, bad.b, scale, shift};
  torch::optim::SGD opt(params, 0.1);
  for (int step = 0; step < 10; ++step) {
    auto x = torch::randn({16, 8});
    auto y = forward(good, x, device) + forward(bad, x, device) * scale + shift;
    auto loss = (y - frozen.sum()).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  std::cout << good.w.grad().defined() << '\n';
}
