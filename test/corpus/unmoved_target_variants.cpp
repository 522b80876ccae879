// Multi-label and digit training loops over torch::data batches: which targets reach the device.
#include <torch/torch.h>

#include <iostream>

struct HeadImpl : torch::nn::Module {
  HeadImpl() : fc(register_module("fc", torch::nn::Linear(20, 6))) {}
  torch::Tensor forward(const torch::Tensor& x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Head);

// Multi-label samples: 20 features, 6 binary labels.
class MultiLabelSet : public torch::data::datasets::Dataset<MultiLabelSet> {
 public:
  explicit MultiLabelSet(int64_t n) : x_(torch::randn({n, 20})), y_(torch::randint(0, 2, {n, 6}).to(torch::kFloat)) {}
  torch::data::Example<> get(size_t i) override { return {x_[i], y_[i]}; }
  torch::optional<size_t> size() const override { return x_.size(0); }

 private:
  torch::Tensor x_, y_;
};

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  Head head;
  head->to(device);
  torch::optim::Adam opt(head->parameters(), 1e-3);
  auto multilabel = torch::data::make_data_loader(MultiLabelSet(256).map(torch::data::transforms::Stack<>()), 32);
  auto digits = torch::data::make_data_loader(
      torch::data::datasets::MNIST("data/mnist").map(torch::data::transforms::Stack<>()), 32);

  for (int epoch = 0; epoch < 3; ++epoch) {
    for (auto& batch : *multilabel) {
      auto x = batch.data.to(device);
      auto logits = head->forward(x);
      auto loss = torch::binary_cross_entropy_with_logits(logits, batch.target);  // BUG(device-unmoved-target): batch.target is still on the CPU
      opt.zero_grad();
      loss.backward();
      opt.step();

      auto y_dev = batch.target.to(device);
      auto acc = (logits.sigmoid() > 0.5).eq(y_dev > 0.5).to(torch::kFloat).mean();  // moved target: fine
      auto host_logits = logits.detach().cpu();
      auto host_acc = (host_logits > 0).eq(batch.target > 0.5).to(torch::kFloat).mean();  // both on the CPU: fine
      std::cout << acc.item<float>() << ' ' << host_acc.item<float>() << '\n';
    }

    for (auto& batch : *digits) {
      auto images = batch.data.to(device).flatten(1).narrow(1, 0, 20);
      auto labels = batch.target;
      auto logits = head->forward(images);
      auto loss = torch::cross_entropy_loss(logits, labels.remainder(6));  // BUG(device-unmoved-target): labels were never moved
      auto correct = logits.argmax(1).cpu().eq(labels.remainder(6)).sum();  // predictions brought to the CPU: fine
      opt.zero_grad();
      loss.backward();
      opt.step();
      std::cout << correct.item<int64_t>() << '\n';
    }
  }
}
