// Image enhancement net with a colour look-up table: modules that manage their own extra tensors.
#include <torch/torch.h>

#include <iostream>

// Keeps a (non-trainable, non-serialised) LUT next to its parameters by overriding to().
class ColorLUTImpl : public torch::nn::Module {
 public:
  explicit ColorLUTImpl(int64_t bins) : bins_(bins) {
    mix_ = register_module("mix", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 3, 1)));
    lut_ = torch::linspace(0.0, 1.0, bins).pow(0.8);
  }
  using torch::nn::Module::to;
  void to(torch::Device device, bool non_blocking = false) override {
    torch::nn::Module::to(device, non_blocking);
    lut_ = lut_.to(device, non_blocking);
  }
  torch::Tensor forward(const torch::Tensor& img) {
    auto idx = (img.clamp(0, 1) * (bins_ - 1)).round().to(torch::kLong);
    return mix_(lut_.index({idx}));
  }

 private:
  int64_t bins_;
  torch::nn::Conv2d mix_{nullptr};
  torch::Tensor lut_;
};
TORCH_MODULE(ColorLUT);

// Follows its input instead: the kernel is moved inside forward().
struct UnsharpMaskImpl : torch::nn::Module {
  UnsharpMaskImpl() {
    kernel = torch::ones({3, 1, 5, 5}) / 25.0;
    amount = register_parameter("amount", torch::full({1}, 0.5));
  }
  torch::Tensor forward(const torch::Tensor& img) {
    auto k = kernel.to(img.device(), img.scalar_type());
    auto blur = torch::conv2d(img, k, {}, 1, 2, 1, 3);
    return img + amount * (img - blur);
  }
  torch::Tensor kernel;
  torch::Tensor amount;
  torch::Tensor debug_stats = torch::zeros({4});  // only touched by report()
  void report() const { std::cout << "stats " << debug_stats << "\n"; }
};
TORCH_MODULE(UnsharpMask);

struct EnhancerImpl : torch::nn::Module {
  EnhancerImpl()
      : lut(register_module("lut", ColorLUT(256))), sharpen(register_module("sharpen", UnsharpMask())) {}
  torch::Tensor forward(const torch::Tensor& img) { return sharpen(lut(img)); }
  ColorLUT lut;
  UnsharpMask sharpen;
};
TORCH_MODULE(Enhancer);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Enhancer net;
  net->to(device);
  torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(1e-3));
  for (int step = 0; step < 200; ++step) {
    auto low = torch::rand({8, 3, 64, 64}, torch::device(device)) * 0.5;
    auto high = (low * 1.8).clamp(0, 1);
    auto loss = torch::l1_loss(net->forward(low), high);
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  net->sharpen->report();
  std::cout << "done\n";
}
