// Loss and metric accumulators: which CPU factories survive meeting GPU tensors and which do not.
#include <torch/torch.h>

#include <iostream>
#include <vector>

struct Stats {
  torch::Tensor loss_sum;
  torch::Tensor correct;
};

int main() {
  const torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential model(torch::nn::Linear(32, 64), torch::nn::ReLU(), torch::nn::Linear(64, 5));
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.05);

  auto inputs = torch::randn({16, 32}).to(device);
  auto labels = torch::randint(0, 5, {16}).to(device);

  auto epoch_loss = torch::zeros({});  // BUG(device-factory-without-device): 0-dim CPU output of an in-place `+=` with a GPU loss throws
  auto correct = torch::zeros({1}, torch::kLong);  // BUG(device-factory-without-device): 1-dim CPU counter, `+=` with a GPU sum throws
  auto seen = torch::zeros({}, torch::kLong);  // only ever meets C++ integers: fine
  auto running = torch::zeros({});  // out-of-place `running = running + loss`: fine
  auto best = torch::full({}, 1e9);  // compared through item(): fine
  auto scale = torch::tensor({0.5});  // BUG(device-factory-without-device): 1-dim (size 1), not 0-dim: not exempt next to GPU tensors
  std::vector<double> history;

  for (int step = 0; step < 20; ++step) {
    auto logits = model->forward(inputs);
    auto loss = torch::cross_entropy_loss(logits, labels);
    opt.zero_grad();
    (loss * scale).backward();
    opt.step();

    epoch_loss += loss.detach();
    correct += logits.argmax(1).eq(labels).sum();
    seen += inputs.size(0);
    running = running + loss.detach();
    if (loss.item<double>() < best.item<double>()) best.fill_(loss.item<double>());
    history.push_back(running.item<double>());
  }
  std::cout << epoch_loss.item<double>() << ' ' << correct.item<int64_t>() << ' '
            << seen.item<int64_t>() << ' ' << history.back() << '\n';
}
