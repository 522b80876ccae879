// Multi-input data pipeline: pinned host batches, a one-batch-ahead prefetcher, a two-tower model.
#include <torch/torch.h>

#include <iostream>
#include <random>
#include <vector>

using TensorList = std::vector<torch::Tensor>;

// Produces {user_features, item_features, clicks} batches in pinned host memory.
class ClickSource {
 public:
  explicit ClickSource(int64_t batch) : batch_(batch) {}
  TensorList next() {
    auto user = torch::randn({batch_, 32});
    auto item = torch::randn({batch_, 48});
    auto click = (torch::rand({batch_}) > 0.9).to(torch::kFloat);
    if (torch::cuda::is_available()) return {user.pin_memory(), item.pin_memory(), click.pin_memory()};
    return {user, item, click};
  }

 private:
  int64_t batch_;
};

class Prefetcher {
 public:
  Prefetcher(ClickSource& src, torch::Device device) : src_(src), device_(device) { preload(); }

  TensorList next() {
    TensorList current = next_;
    preload();
    return current;
  }

 private:
  void preload() {
    next_ = src_.next();
    for (auto t : next_) {
      t = t.to(device_, /*non_blocking=*/true);  // BUG(device-loop-copy-to): t is a copy of the element; next_ keeps its host tensors
    }
  }
  ClickSource& src_;
  torch::Device device_;
  TensorList next_;
};

struct TwoTowerImpl : torch::nn::Module {
  TwoTowerImpl()
      : user(register_module("user", torch::nn::Sequential(torch::nn::Linear(32, 64), torch::nn::ReLU(), torch::nn::Linear(64, 32)))),
        item(register_module("item", torch::nn::Sequential(torch::nn::Linear(48, 64), torch::nn::ReLU(), torch::nn::Linear(64, 32)))) {}
  torch::Tensor forward(const torch::Tensor& u, const torch::Tensor& i) {
    return (user->forward(u) * item->forward(i)).sum(1);
  }
  torch::nn::Sequential user, item;
};
TORCH_MODULE(TwoTower);

TensorList to_device(const TensorList& batch, torch::Device device) {
  TensorList out;
  for (auto t : batch) {
    t = t.to(device);
    out.push_back(t);
  }
  return out;
}

void warmup(TwoTower& model, ClickSource& src, torch::Device device) {
  torch::NoGradGuard no_grad;
  auto batch = src.next();
  batch[0].to(device);  // BUG(device-discarded-to): the element is unchanged; batch[0] is still the host tensor
  batch[1] = batch[1].to(device);
  model->forward(batch[0], batch[1]);
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  TwoTower model;
  model->to(device);
  ClickSource source(1024);
  warmup(model, source, device);
  torch::optim::Adagrad opt(model->parameters(), torch::optim::AdagradOptions(0.05));

  Prefetcher prefetch(source, device);
  for (int step = 0; step < 500; ++step) {
    auto batch = step % 2 ? prefetch.next() : to_device(source.next(), device);
    auto logit = model->forward(batch[0], batch[1]);
    auto loss = torch::binary_cross_entropy_with_logits(logit, batch[2]);
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 100 == 0) std::cout << step << " " << loss.item<float>() << "\n";
  }
  torch::save(model, "two_tower.pt");
}
