// Fashion-MNIST-style classifier with generic train/evaluate templates that take the
// model and the loader by reference.
#include <torch/torch.h>

#include <cstdio>

struct FashionDataset : torch::data::datasets::Dataset<FashionDataset> {
  explicit FashionDataset(int64_t n) : images(torch::rand({n, 1, 28, 28})), labels(torch::randint(0, 10, {n}, torch::kLong)) {}
  torch::data::Example<> get(size_t i) override { return {images[i], labels[i]}; }
  torch::optional<size_t> size() const override { return static_cast<size_t>(images.size(0)); }
  torch::Tensor images, labels;  // host memory, as loaded from disk
};

struct FashionNetImpl : torch::nn::Module {
  FashionNetImpl() {
    features = register_module("features", torch::nn::Sequential(
        torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 32, 3).padding(1)), torch::nn::ReLU(), torch::nn::MaxPool2d(2),
        torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 64, 3).padding(1)), torch::nn::ReLU(), torch::nn::MaxPool2d(2)));
    classifier = register_module("classifier", torch::nn::Sequential(torch::nn::Flatten(), torch::nn::Dropout(0.25),
                                                                     torch::nn::Linear(64 * 7 * 7, 10)));
  }
  torch::Tensor forward(const torch::Tensor& x) { return classifier->forward(features->forward(x)); }
  torch::nn::Sequential features{nullptr}, classifier{nullptr};
};
TORCH_MODULE(FashionNet);

template <typename Net, typename Loader>
double run_epoch(Net& net, Loader& loader, torch::optim::Optimizer& opt, torch::Device device) {
  net->train();
  auto sum = torch::zeros({}, torch::TensorOptions().device(device));
  int64_t n = 0;
  for (auto& batch : loader) {
    auto target = batch.target.to(device);
    auto logits = net->forward(batch.data);  // BUG(device-unmoved-input): main() moved the net to the device; the loader's images are host tensors
    auto loss = torch::cross_entropy_loss(logits, target);
    opt.zero_grad();
    loss.backward();
    opt.step();
    sum += loss.detach();
    ++n;
  }
  return sum.item<double>() / static_cast<double>(n);
}

template <typename Net, typename Loader>
double evaluate(Net& net, Loader& loader, torch::Device device) {
  torch::NoGradGuard no_grad;
  net->eval();
  auto correct = torch::zeros({}, torch::TensorOptions().dtype(torch::kLong).device(device));
  int64_t seen = 0;
  for (auto& batch : loader) {
    auto images = batch.data.to(device);
    auto pred = net->forward(images).argmax(1);
    correct += pred.eq(batch.target).sum();  // BUG(device-unmoved-target): the images were moved, the labels were not: eq() meets device predictions with host labels
    seen += batch.target.size(0);
  }
  return correct.item<double>() / static_cast<double>(seen);
}

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto train_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      FashionDataset(60000).map(torch::data::transforms::Stack<>()), 128);
  auto test_loader = torch::data::make_data_loader(FashionDataset(10000).map(torch::data::transforms::Stack<>()), 512);

  FashionNet net;
  net->to(device);
  torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(1e-3));
  for (int epoch = 0; epoch < 15; ++epoch) {
    const double loss = run_epoch(net, *train_loader, opt, device);
    const double acc = evaluate(net, *test_loader, device);
    std::printf("epoch %d loss %.4f test acc %.4f\n", epoch, loss, acc);
  }
}
