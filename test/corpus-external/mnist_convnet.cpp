// MNIST convnet: train, evaluate, checkpoint. Device handling done right throughout.
#include <torch/torch.h>

#include <cstdio>
#include <string>

struct ConvNetImpl : torch::nn::Module {
  ConvNetImpl()
      : conv1(register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 32, 3)))),
        conv2(register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 64, 3)))),
        drop(register_module("drop", torch::nn::Dropout(0.25))),
        fc1(register_module("fc1", torch::nn::Linear(9216, 128))),
        fc2(register_module("fc2", torch::nn::Linear(128, 10))) {}

  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(conv1(x));
    x = torch::max_pool2d(torch::relu(conv2(x)), 2);
    x = drop(x).flatten(1);
    x = torch::relu(fc1(x));
    return torch::log_softmax(fc2(x), 1);
  }
  torch::nn::Conv2d conv1, conv2;
  torch::nn::Dropout drop;
  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(ConvNet);

template <typename Loader>
double train_epoch(ConvNet& model, Loader& loader, torch::optim::Optimizer& opt, torch::Device device) {
  model->train();
  auto running = torch::zeros({});
  int64_t steps = 0;
  for (auto& batch : loader) {
    auto data = batch.data.to(device), target = batch.target.to(device);
    opt.zero_grad();
    auto loss = torch::nll_loss(model->forward(data), target);
    loss.backward();
    opt.step();
    running = running + loss.detach();
    ++steps;
  }
  return running.item<double>() / std::max<int64_t>(steps, 1);
}

template <typename Loader>
double test(ConvNet& model, Loader& loader, torch::Device device) {
  torch::NoGradGuard no_grad;
  model->eval();
  int64_t correct = 0, seen = 0;
  for (const auto& batch : loader) {
    auto data = batch.data.to(device);
    auto target = batch.target.to(device);
    auto pred = model->forward(data).argmax(1);
    correct += pred.eq(target).sum().template item<int64_t>();
    seen += target.size(0);
  }
  return static_cast<double>(correct) / std::max<int64_t>(seen, 1);
}

int main(int argc, char** argv) {
  torch::manual_seed(1);
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  const std::string root = argc > 1 ? argv[1] : "./data";

  ConvNet model;
  model->to(device);
  if (argc > 2) torch::load(model, argv[2], device);

  auto train_set = torch::data::datasets::MNIST(root)
                       .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
                       .map(torch::data::transforms::Stack<>());
  auto test_set = torch::data::datasets::MNIST(root, torch::data::datasets::MNIST::Mode::kTest)
                      .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
                      .map(torch::data::transforms::Stack<>());
  auto train_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(std::move(train_set), 64);
  auto test_loader = torch::data::make_data_loader(std::move(test_set), 1000);

  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.5));
  for (int epoch = 1; epoch <= 10; ++epoch) {
    double loss = train_epoch(model, *train_loader, opt, device);
    double acc = test(model, *test_loader, device);
    std::printf("epoch %d  loss %.4f  acc %.4f\n", epoch, loss, acc);
    torch::save(model, "convnet.pt");
  }
}
