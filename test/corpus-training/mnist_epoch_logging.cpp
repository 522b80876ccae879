// MNIST classifier: conv -> conv -> two linear layers. The device comes from
// --device (default: CUDA when it is available). Mean loss per epoch is logged.
#include <torch/torch.h>

#include <cstdio>
#include <cstring>
#include <string>

struct DigitNet : torch::nn::Module {
  DigitNet() {
    c1 = register_module("c1", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 16, 3).padding(1)));
    c2 = register_module("c2", torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 32, 3).padding(1)));
    bn = register_module("bn", torch::nn::BatchNorm2d(32));
    head = register_module("head", torch::nn::Linear(32 * 7 * 7, 10));
  }

  torch::Tensor forward(torch::Tensor x) {
    x = torch::max_pool2d(torch::relu(c1->forward(x)), 2);
    x = torch::max_pool2d(torch::relu(bn->forward(c2->forward(x))), 2);
    return head->forward(x.flatten(1));
  }

  torch::nn::Conv2d c1{nullptr}, c2{nullptr};
  torch::nn::BatchNorm2d bn{nullptr};
  torch::nn::Linear head{nullptr};
};

static torch::Device parse_device(int argc, char** argv) {
  bool want_cuda = torch::cuda::is_available();
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--device") != 0) continue;
    const std::string arg = argv[i + 1];
    if (arg == "cuda") want_cuda = true;  // a command-line word, not a device
    else if (arg == "cpu") want_cuda = false;
  }
  if (want_cuda && !torch::cuda::is_available()) {
    std::fprintf(stderr, "CUDA requested but not available, using the CPU\n");
    want_cuda = false;
  }
  return want_cuda ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
}

int main(int argc, char** argv) {
  const torch::Device device = parse_device(argc, argv);
  auto train_set = torch::data::datasets::MNIST("./data")
                       .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
                       .map(torch::data::transforms::Stack<>());
  const size_t n_train = train_set.size().value();
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      std::move(train_set), torch::data::DataLoaderOptions().batch_size(128).workers(2));

  DigitNet net;
  net.to(device);
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));

  const int log_interval = 50;
  for (int epoch = 1; epoch <= 5; ++epoch) {
    net.train();
    double epoch_loss = 0.0;
    size_t batch_idx = 0;
    for (auto& batch : *loader) {
      auto images = batch.data.to(device);
      auto labels = batch.target.to(device);
      opt.zero_grad();
      auto logits = net.forward(images);
      auto loss = torch::cross_entropy_loss(logits, labels);
      loss.backward();
      opt.step();
      epoch_loss += loss.item<double>();  // BUG(device-sync-in-loop): reads the loss back to the host after every batch, stalling the GPU queue each step
      if (batch_idx % log_interval == 0) {
        std::printf("epoch %d [%5zu/%5zu] loss %.4f\n", epoch, batch_idx * 128, n_train,
                    loss.item<float>());
      }
      ++batch_idx;
    }
    std::printf("epoch %d mean loss %.4f\n", epoch, epoch_loss / static_cast<double>(batch_idx));
  }
  torch::save(net.parameters(), "digitnet_params.pt");
  return 0;
}
