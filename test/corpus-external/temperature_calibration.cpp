// Post-hoc calibration: fit a temperature on validation logits, report expected calibration error.
#include <torch/torch.h>

#include <iostream>

// Expected calibration error over host tensors (confidences, correctness), 15 equal-width bins.
double ece(const torch::Tensor& conf, const torch::Tensor& correct) {
  auto edges = torch::linspace(0.0, 1.0, 16);
  double total = 0;
  for (int64_t b = 0; b < 15; ++b) {
    auto in_bin = conf.gt(edges[b]).logical_and(conf.le(edges[b + 1]));
    const auto n = in_bin.sum().item<int64_t>();
    if (n == 0) continue;
    auto gap = conf.index({in_bin}).mean() - correct.index({in_bin}).to(torch::kFloat).mean();
    total += gap.abs().item<double>() * n / conf.size(0);
  }
  return total;
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto model = torch::nn::Sequential(torch::nn::Linear(64, 128), torch::nn::ReLU(), torch::nn::Linear(128, 10));
  torch::load(model, "classifier.pt", device);
  model->to(device);
  model->eval();

  auto val_x = torch::randn({5000, 64}, torch::device(device));
  auto val_y = torch::randint(0, 10, {5000}, torch::TensorOptions().dtype(torch::kLong).device(device));
  torch::Tensor val_logits;
  {
    torch::NoGradGuard no_grad;
    val_logits = model->forward(val_x).cpu();  // kept on the host: the fit below runs many passes over it
  }
  auto val_y_host = val_y.cpu();

  auto log_t = torch::zeros({1}, torch::TensorOptions().device(device).requires_grad(true));
  torch::optim::LBFGS opt({log_t}, torch::optim::LBFGSOptions(0.01).max_iter(100));
  auto closure = [&]() -> torch::Tensor {
    opt.zero_grad();
    auto scaled = val_logits / log_t.exp();  // BUG(device-mismatch): host logits (.cpu() above) divided by the device [1] temperature
    auto loss = torch::cross_entropy_loss(scaled, val_y_host);
    loss.backward();
    return loss;
  };
  opt.step(closure);

  torch::NoGradGuard no_grad;
  const double T = log_t.exp().item<double>();
  auto before = torch::softmax(val_logits, 1).max(1);
  auto after = torch::softmax(val_logits / T, 1).max(1);
  auto correct = std::get<1>(before).eq(val_y_host);
  auto acc_after = std::get<1>(after).eq(val_y).to(torch::kFloat).mean();  // BUG(device-mismatch): predictions from the host logits compared with the device labels
  std::cout << "T = " << T << "  ECE before " << ece(std::get<0>(before), correct) << " after "
            << ece(std::get<0>(after), correct) << "  acc " << acc_after.item<float>() << "\n";
}
