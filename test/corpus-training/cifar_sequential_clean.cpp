// A small VGG-style CIFAR-10 classifier built from Sequential blocks, trained on
// synthetic stand-in data (the real loader is not the point here). Written the way
// a careful user writes it: no per-step host reads, gradients cleared every step,
// evaluation without autograd.
#include <torch/torch.h>

#include <chrono>
#include <cstdio>

static torch::nn::Sequential conv_block(int64_t in, int64_t out) {
  return torch::nn::Sequential(
      torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 3).padding(1).bias(false)),
      torch::nn::BatchNorm2d(out), torch::nn::ReLU(),
      torch::nn::Conv2d(torch::nn::Conv2dOptions(out, out, 3).padding(1).bias(false)),
      torch::nn::BatchNorm2d(out), torch::nn::ReLU(), torch::nn::MaxPool2d(2));
}

struct SmallVggImpl : torch::nn::Module {
  SmallVggImpl() {
    blocks = register_module("blocks", torch::nn::ModuleList());
    for (auto [in, out] : {std::pair<int64_t, int64_t>{3, 32}, {32, 64}, {64, 128}}) blocks->push_back(conv_block(in, out));
    classifier = register_module("classifier", torch::nn::Linear(128 * 4 * 4, 10));
  }
  torch::Tensor forward(torch::Tensor x) {
    for (const auto& block : *blocks) x = block->as<torch::nn::SequentialImpl>()->forward(x);
    return classifier->forward(x.flatten(1));
  }
  torch::nn::ModuleList blocks{nullptr};
  torch::nn::Linear classifier{nullptr};
};
TORCH_MODULE(SmallVgg);

struct Split {
  torch::Tensor images, labels;
};

static Split synthetic_split(int64_t n, torch::Device device) {
  auto opts = torch::TensorOptions().device(device);
  return {torch::randn({n, 3, 32, 32}, opts), torch::randint(0, 10, {n}, opts.dtype(torch::kLong))};
}

static double evaluate(SmallVgg& model, const Split& split, int64_t batch) {
  torch::NoGradGuard no_grad;  // the whole function runs without autograd
  model->eval();
  auto correct = torch::zeros({}, split.labels.options());
  for (int64_t i = 0; i < split.images.size(0); i += batch) {
    auto x = split.images.narrow(0, i, std::min(batch, split.images.size(0) - i));
    auto y = split.labels.narrow(0, i, x.size(0));
    correct += model->forward(x).argmax(1).eq(y).sum();
  }
  return correct.item<double>() / static_cast<double>(split.images.size(0));  // once, after the loop
}

int main() {
  const auto device = torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  if (device.is_cuda()) std::printf("training on %s\n", device.str().c_str());
  torch::manual_seed(0);

  auto train = synthetic_split(4096, device);
  auto val = synthetic_split(1024, device);

  SmallVgg model;
  model->to(device);
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-3).weight_decay(5e-4));
  const int64_t batch = 128;

  const auto t0 = std::chrono::steady_clock::now();
  for (int epoch = 0; epoch < 10; ++epoch) {
    model->train();
    auto perm = torch::randperm(train.images.size(0), torch::TensorOptions().dtype(torch::kLong).device(device));
    auto running = torch::zeros({}, torch::TensorOptions().device(device));
    int64_t steps = 0;
    for (int64_t i = 0; i + batch <= perm.size(0); i += batch, ++steps) {
      auto idx = perm.narrow(0, i, batch);
      auto logits = model->forward(train.images.index_select(0, idx));
      auto loss = torch::cross_entropy_loss(logits, train.labels.index_select(0, idx));
      loss.backward();
      opt.step();
      opt.zero_grad();  // after the step: the next iteration starts clean
      running += loss.detach();
    }
    const double val_acc = evaluate(model, val, 256);
    std::printf("epoch %d loss %.4f val acc %.3f\n", epoch, running.item<double>() / steps, val_acc);
  }
  if (device.is_cuda()) torch::cuda::synchronize();  // once, so the wall time covers the queued work
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("trained in %.1f s\n", secs);
  torch::save(model, "small_vgg.pt");
}
