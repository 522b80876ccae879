// 0-dim CPU tensors and device-aware factories next to GPU tensors: all of this is correct.
#include <torch/torch.h>

#include <iostream>

torch::Tensor smooth_labels(const torch::Tensor& onehot, double eps) {
  auto k = static_cast<double>(onehot.size(1));
  return onehot * torch::tensor(1.0 - eps) + torch::tensor(eps / k);  // two 0-dim CPU tensors, one per op
}

torch::Tensor add_noise(const torch::Tensor& x, double stddev) {
  return x + torch::randn(x.sizes(), x.options()) * stddev;
}

torch::Tensor offsets(const torch::Tensor& boxes) {
  return torch::arange(boxes.size(0), boxes.options().dtype(torch::kLong));
}

torch::Tensor l2_penalty(torch::nn::Module& m) {
  auto acc = torch::zeros({});  // 0-dim CPU start; acc = acc + ... moves the result to the params' device
  for (const auto& p : m.parameters()) acc = acc + p.pow(2).sum();
  return acc;
}

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto model = torch::nn::Linear(16, 4);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.1);

  auto x = torch::randn({8, 16}, torch::device(device));
  auto y = torch::randint(0, 4, {8}, torch::TensorOptions().device(device).dtype(torch::kLong));
  auto scale = torch::tensor(0.5);  // 0-dim
  auto bias = torch::zeros({});     // 0-dim
  auto mask = torch::ones({8, 16}, x.options());
  auto w = torch::full({4}, 2.0, torch::TensorOptions().device(device));
  auto buf = torch::empty_like(x);
  auto eye = torch::eye(4, torch::dtype(torch::kFloat).device(device));

  for (int step = 0; step < 5; ++step) {
    auto h = (x * scale + bias) * mask;
    auto logits = model->forward(h + buf.zero_()).matmul(eye);
    auto onehot = torch::one_hot(y, 4).to(torch::kFloat);
    auto target = smooth_labels(onehot, 0.1);
    auto loss = torch::mse_loss(torch::softmax(logits, 1) * w, target) + 1e-4 * l2_penalty(*model);
    loss = loss * torch::tensor(2.0);
    opt.zero_grad();
    loss.backward();
    opt.step();
    std::cout << loss.item<float>() << ' ' << offsets(add_noise(x, 0.1)).size(0) << '\n';
  }
}
