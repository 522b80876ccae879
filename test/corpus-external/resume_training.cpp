// Image classifier training that can stop and resume: model, optimizer and step counter checkpoints.
#include <torch/torch.h>

#include <filesystem>
#include <iostream>
#include <string>

namespace fs = std::filesystem;

struct ResidualBlockImpl : torch::nn::Module {
  explicit ResidualBlockImpl(int64_t c)
      : conv1(register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(c, c, 3).padding(1).bias(false)))),
        bn1(register_module("bn1", torch::nn::BatchNorm2d(c))),
        conv2(register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(c, c, 3).padding(1).bias(false)))),
        bn2(register_module("bn2", torch::nn::BatchNorm2d(c))) {}
  torch::Tensor forward(const torch::Tensor& x) {
    auto y = torch::relu(bn1(conv1(x)));
    return torch::relu(x + bn2(conv2(y)));
  }
  torch::nn::Conv2d conv1;
  torch::nn::BatchNorm2d bn1;
  torch::nn::Conv2d conv2;
  torch::nn::BatchNorm2d bn2;
};
TORCH_MODULE(ResidualBlock);

struct SmallResNetImpl : torch::nn::Module {
  SmallResNetImpl() {
    stem = register_module("stem", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 64, 3).padding(1)));
    blocks = register_module("blocks", torch::nn::Sequential(ResidualBlock(64), ResidualBlock(64), ResidualBlock(64)));
    fc = register_module("fc", torch::nn::Linear(64, 10));
  }
  torch::Tensor forward(const torch::Tensor& x) {
    auto h = blocks->forward(torch::relu(stem(x)));
    return fc(torch::adaptive_avg_pool2d(h, {1, 1}).flatten(1));
  }
  torch::nn::Conv2d stem{nullptr};
  torch::nn::Sequential blocks{nullptr};
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(SmallResNet);

struct Checkpointer {
  std::string dir;
  void save(SmallResNet& model, torch::optim::SGD& opt, int64_t step) const {
    fs::create_directories(dir);
    torch::save(model, dir + "/model.pt");
    torch::save(opt, dir + "/optim.pt");
    torch::save(torch::tensor(step), dir + "/step.pt");
  }
  bool exists() const { return fs::exists(dir + "/model.pt"); }
};

int64_t resume(const Checkpointer& ck, SmallResNet& model, torch::optim::SGD& opt, torch::Device device) {
  model->to(device);
  torch::load(model, ck.dir + "/model.pt");  // BUG(device-load-without-device): the weights go back to the device the checkpoint was written from, undoing the move
  torch::load(opt, ck.dir + "/optim.pt");  // BUG(device-load-without-device): momentum buffers come back on the saving device, not next to the parameters
  torch::Tensor step;
  torch::load(step, ck.dir + "/step.pt", torch::kCPU);
  return step.item<int64_t>();
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  SmallResNet model;
  model->to(device);
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9).weight_decay(5e-4));
  Checkpointer ck{"runs/resnet"};
  int64_t start = ck.exists() ? resume(ck, model, opt, device) : 0;

  for (int64_t step = start; step < 10000; ++step) {
    auto images = torch::randn({128, 3, 32, 32}, torch::device(device));
    auto labels = torch::randint(0, 10, {128}, torch::TensorOptions().dtype(torch::kLong).device(device));
    auto loss = torch::cross_entropy_loss(model->forward(images), labels);
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 1000 == 0) {
      ck.save(model, opt, step);
      std::cout << "step " << step << " loss " << loss.item<float>() << "\n";
    }
  }
}
