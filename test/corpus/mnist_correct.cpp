// The same MNIST loop written correctly: every device-related look-alike here is fine.
#include <torch/torch.h>

#include <iostream>

struct NetImpl : torch::nn::Module {
  NetImpl()
      : conv1(register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 16, 5)))),
        conv2(register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 32, 5)))),
        fc(register_module("fc", torch::nn::Linear(32 * 4 * 4, 10))) {}

  torch::Tensor forward(torch::Tensor x) {
    x = torch::max_pool2d(torch::relu(conv1->forward(x)), 2);
    x = torch::max_pool2d(torch::relu(conv2->forward(x)), 2);
    return fc->forward(x.flatten(1));
  }

  torch::nn::Conv2d conv1, conv2;
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

int main(int argc, char** argv) {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  Net model;
  if (argc > 1) torch::load(model, argv[1], device);
  model->to(device);

  auto dataset = torch::data::datasets::MNIST("data/mnist").map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      std::move(dataset), torch::data::DataLoaderOptions().batch_size(64).workers(2));
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-3));

  for (int epoch = 0; epoch < 3; ++epoch) {
    auto running = torch::zeros({}, torch::TensorOptions().device(device));
    auto correct = torch::zeros({1}, torch::device(device).dtype(torch::kLong));
    int64_t seen = 0;
    for (auto& batch : *loader) {
      auto data = batch.data.to(device, /*non_blocking=*/true);
      auto target = batch.target.to(device);
      opt.zero_grad();
      auto logits = model->forward(data);
      auto loss = torch::cross_entropy_loss(logits, target);
      loss.backward();
      opt.step();
      running += loss.detach();
      correct += logits.argmax(1).eq(target).sum();
      seen += data.size(0);
    }
    std::cout << "epoch " << epoch << " loss " << running.item<double>() << " acc "
              << correct.item<double>() / static_cast<double>(seen) << '\n';
    torch::save(model, "mnist.pt");
  }
}
