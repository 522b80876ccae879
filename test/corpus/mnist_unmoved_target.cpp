// MNIST-style classifier: the training loop moves images but not labels.
#include <torch/torch.h>

#include <iostream>

struct MlpImpl : torch::nn::Module {
  MlpImpl(int64_t in, int64_t hidden, int64_t out)
      : fc1(register_module("fc1", torch::nn::Linear(in, hidden))),
        fc2(register_module("fc2", torch::nn::Linear(hidden, out))) {}

  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1->forward(x.flatten(1)));
    return torch::log_softmax(fc2->forward(x), 1);
  }

  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(Mlp);

using MnistLoader = torch::data::StatelessDataLoader<
    torch::data::datasets::MapDataset<torch::data::datasets::MNIST,
                                      torch::data::transforms::Stack<>>,
    torch::data::samplers::RandomSampler>;

double train_epoch(Mlp& model, MnistLoader& loader, torch::optim::Optimizer& opt,
                   torch::Device device) {
  model->train();
  double total = 0.0;
  for (auto& batch : loader) {
    auto data = batch.data.to(device);
    opt.zero_grad();
    auto output = model->forward(data);
    auto loss = torch::nll_loss(output, batch.target);  // BUG(device-unmoved-target): batch.target was never moved to device
    loss.backward();
    opt.step();
    total += loss.item<double>();
  }
  return total;
}

double evaluate(Mlp& model, MnistLoader& loader, torch::Device device) {
  torch::NoGradGuard no_grad;
  model->eval();
  int64_t correct = 0;
  for (const auto& batch : loader) {
    auto data = batch.data.to(device);
    auto target = batch.target.to(device);
    auto output = model->forward(data);
    correct += output.argmax(1).eq(target).sum().item<int64_t>();
  }
  return static_cast<double>(correct);
}

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  Mlp model(784, 128, 10);
  model->to(device);

  auto train_set = torch::data::datasets::MNIST("data/mnist").map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(std::move(train_set), 64);
  auto test_set = torch::data::datasets::MNIST("data/mnist", torch::data::datasets::MNIST::Mode::kTest)
                      .map(torch::data::transforms::Stack<>());
  auto test_loader =
      torch::data::make_data_loader<torch::data::samplers::RandomSampler>(std::move(test_set), 256);

  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.5));
  for (int epoch = 0; epoch < 5; ++epoch) {
    std::cout << train_epoch(model, *loader, opt, device) << ' '
              << evaluate(model, *test_loader, device) << '\n';
  }
}
