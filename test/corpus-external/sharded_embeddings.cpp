// CTR model with a large embedding table kept apart from the dense tower ("poor man's" model parallelism).
#include <torch/torch.h>

#include <iostream>
#include <vector>

struct DenseTowerImpl : torch::nn::Module {
  DenseTowerImpl(int64_t in, int64_t hidden)
      : net(register_module("net", torch::nn::Sequential(torch::nn::Linear(in, hidden), torch::nn::ReLU(),
                                                          torch::nn::Linear(hidden, hidden), torch::nn::ReLU(),
                                                          torch::nn::Linear(hidden, 1)))) {}
  torch::Tensor forward(const torch::Tensor& x) { return net->forward(x).squeeze(1); }
  torch::nn::Sequential net;
};
TORCH_MODULE(DenseTower);

class ShardedCTR {
 public:
  ShardedCTR(int64_t rows, int64_t dim, torch::Device dense_device)
      : table_(torch::nn::EmbeddingBagOptions(rows, dim).mode(torch::kSum)), tower_(dim + 13, 256), dense_(dense_device) {
    table_->to(torch::Device(torch::kCUDA, 1));  // BUG(device-hardcoded): the table always goes to the second GPU; throws 'invalid device ordinal' on a one-GPU (or CPU-only) machine
    tower_->to(dense_);
  }

  torch::Tensor forward(const torch::Tensor& ids, const torch::Tensor& offsets, const torch::Tensor& dense) {
    auto table_device = table_->weight.device();
    auto pooled = table_->forward(ids.to(table_device), offsets.to(table_device)).to(dense_);
    return tower_->forward(torch::cat({pooled, dense.to(dense_)}, 1));
  }

  std::vector<torch::Tensor> parameters() {
    auto p = table_->parameters();
    for (auto& t : tower_->parameters()) p.push_back(t);
    return p;
  }

  torch::Tensor calibration_bias() {
    if (dense_ == torch::Device(torch::kCUDA, 0)) std::cout << "dense tower on the first GPU\n";
    return torch::zeros({1}, torch::TensorOptions().device(torch::kCUDA, 0));  // BUG(device-hardcoded): ignores dense_; cuda:0 does not exist on a CPU-only machine
  }

 private:
  torch::nn::EmbeddingBag table_;
  DenseTower tower_;
  torch::Device dense_;
};

int main(int argc, char** argv) {
  const int local_rank = argc > 1 ? std::atoi(argv[1]) : 0;
  torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA, local_rank) : torch::Device(torch::kCPU);
  ShardedCTR model(1000000, 64, device);
  torch::optim::Adagrad opt(model.parameters(), torch::optim::AdagradOptions(0.01));
  auto bias = model.calibration_bias();
  auto cpu0 = torch::Device(torch::kCPU, 0);
  for (int step = 0; step < 1000; ++step) {
    auto ids = torch::randint(0, 1000000, {4096 * 20}, torch::kLong);
    auto offsets = torch::arange(0, 4096 * 20, 20, torch::kLong);
    auto dense = torch::randn({4096, 13});
    auto clicks = (torch::rand({4096}, torch::device(device)) > 0.97).to(torch::kFloat);
    auto logits = model.forward(ids, offsets, dense) + bias;
    auto loss = torch::binary_cross_entropy_with_logits(logits, clicks);
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 100 == 0) std::cout << step << " " << loss.to(cpu0).item<float>() << "\n";
  }
}
