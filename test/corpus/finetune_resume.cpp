// Fine-tuning a pretrained backbone: a class that owns the model and its checkpoints.
#include <torch/torch.h>
#include <torch/script.h>

#include <string>

struct BackboneImpl : torch::nn::Module {
  BackboneImpl()
      : body(register_module("body", torch::nn::Sequential(
                                         torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 32, 3).stride(2)),
                                         torch::nn::BatchNorm2d(32), torch::nn::ReLU(),
                                         torch::nn::AdaptiveAvgPool2d(1), torch::nn::Flatten()))),
        fc(register_module("fc", torch::nn::Linear(32, 100))) {}
  torch::Tensor forward(const torch::Tensor& x) { return fc->forward(body->forward(x)); }
  torch::nn::Sequential body;
  torch::nn::Linear fc;
};
TORCH_MODULE(Backbone);

class Trainer {
 public:
  Trainer(const std::string& pretrained, const std::string& feature_path, torch::Device device)
      : device_(device), features_(torch::jit::load(feature_path)) {  // BUG(device-load-without-device): TorchScript extractor restored to its saved device, not device_
    model_->to(device_);
    torch::load(model_, pretrained);  // BUG(device-load-without-device): after model_->to(device_), the weights return to the checkpoint's device
    optimizer_ = std::make_unique<torch::optim::SGD>(model_->parameters(), 0.01);
  }

  void reload(const std::string& path) {
    torch::load(model_, path, device_);
  }

  void load_head(const std::string& path) {
    torch::nn::Linear head(32, 100);
    torch::load(head, path, device_);
    model_->fc->weight.data().copy_(head->weight.data());
  }

  float step(const torch::Tensor& images, const torch::Tensor& labels) {
    auto x = images.to(device_);
    auto y = labels.to(device_);
    auto loss = torch::cross_entropy_loss(model_->forward(x), y);
    optimizer_->zero_grad();
    loss.backward();
    optimizer_->step();
    return loss.item<float>();
  }

 private:
  torch::Device device_;
  torch::jit::Module features_;
  Backbone model_;
  std::unique_ptr<torch::optim::SGD> optimizer_;
};

int main(int argc, char** argv) {
  if (argc < 3) return 1;
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  Trainer trainer(argv[1], argv[2], device);
  trainer.reload(argv[1]);
  return static_cast<int>(trainer.step(torch::rand({4, 3, 32, 32}), torch::randint(0, 100, {4})));
}
