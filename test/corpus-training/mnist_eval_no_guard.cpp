// MNIST MLP: train, then report test accuracy after every epoch.
#include <torch/torch.h>

#include <cstdio>
#include <cstdlib>

class MlpImpl : public torch::nn::Module {
 public:
  MlpImpl(int64_t hidden, double p_drop)
      : fc1_(register_module("fc1", torch::nn::Linear(784, hidden))),
        fc2_(register_module("fc2", torch::nn::Linear(hidden, hidden))),
        out_(register_module("out", torch::nn::Linear(hidden, 10))),
        drop_(register_module("drop", torch::nn::Dropout(p_drop))) {}

  torch::Tensor forward(torch::Tensor x) {
    x = drop_->forward(torch::relu(fc1_->forward(x.view({x.size(0), 784}))));
    x = drop_->forward(torch::relu(fc2_->forward(x)));
    return out_->forward(x);
  }

 private:
  torch::nn::Linear fc1_, fc2_, out_;
  torch::nn::Dropout drop_;
};
TORCH_MODULE(Mlp);

template <typename Loader>
void train_epoch(Mlp& model, Loader& loader, torch::optim::Optimizer& opt, torch::Device device) {
  model->train();
  for (auto& batch : loader) {
    auto x = batch.data.to(device);
    auto y = batch.target.to(device);
    opt.zero_grad();
    auto loss = torch::cross_entropy_loss(model->forward(x), y);
    loss.backward();
    opt.step();
  }
}

int main() {
  const bool force_cpu = std::getenv("FORCE_CPU") != nullptr;
  const torch::Device device = (!force_cpu && torch::cuda::is_available()) ? torch::kCUDA : torch::kCPU;

  auto train_ds = torch::data::datasets::MNIST("data", torch::data::datasets::MNIST::Mode::kTrain)
                      .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
                      .map(torch::data::transforms::Stack<>());
  auto test_ds = torch::data::datasets::MNIST("data", torch::data::datasets::MNIST::Mode::kTest)
                     .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
                     .map(torch::data::transforms::Stack<>());
  const auto n_test = test_ds.size().value();
  auto train_loader = torch::data::make_data_loader(std::move(train_ds), 64);
  auto test_loader = torch::data::make_data_loader(std::move(test_ds), 1000);

  Mlp model(512, 0.2);
  model->to(device);
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9).nesterov(true));

  for (int epoch = 1; epoch <= 10; ++epoch) {
    train_epoch(model, *train_loader, opt, device);

    model->eval();
    auto correct = torch::zeros({}, torch::TensorOptions().dtype(torch::kLong).device(device));
    auto total_loss = torch::zeros({}, torch::TensorOptions().device(device));
    for (auto& batch : *test_loader) {
      auto x = batch.data.to(device);
      auto y = batch.target.to(device);
      auto logits = model->forward(x);  // BUG(training-inference-without-no-grad): evaluation after eval() with autograd on: each batch records a graph, and total_loss below keeps all of them alive until the epoch ends
      total_loss += torch::cross_entropy_loss(logits, y, {}, at::Reduction::Sum);
      correct += logits.argmax(1).eq(y).sum();
    }
    std::printf("epoch %d  test loss %.4f  acc %.2f%%\n", epoch, total_loss.item<double>() / n_test,
                100.0 * correct.item<double>() / n_test);
  }
  torch::save(model, "mlp_mnist.pt");
}
