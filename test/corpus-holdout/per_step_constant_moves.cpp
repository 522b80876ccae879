// Multi-label image tagging with a positive-class weight and a fixed label-correlation
// prior; both constants live in host memory and are needed on the device.
#include <torch/torch.h>

#include <cstdio>

class PriorSmoother {
 public:
  explicit PriorSmoother(int64_t labels) : prior_(torch::eye(labels) * 0.8 + 0.2 / labels) {}
  // Mixes the predicted probabilities with the label-correlation prior.
  torch::Tensor apply(const torch::Tensor& probs) const {
    return probs.matmul(prior_.to(probs.device()));  // BUG(device-loop-invariant-to): prior_ never changes, yet every training step (main() calls apply() per batch) copies it to the device again
  }

 private:
  torch::Tensor prior_;
};

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  const int64_t labels = 80;
  auto model = torch::nn::Sequential(
      torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 64, 3).stride(2).padding(1)), torch::nn::ReLU(),
      torch::nn::Conv2d(torch::nn::Conv2dOptions(64, 128, 3).stride(2).padding(1)), torch::nn::ReLU(),
      torch::nn::AdaptiveAvgPool2d(1), torch::nn::Flatten(), torch::nn::Linear(128, labels));
  model->to(device);
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-3));

  auto pos_weight = torch::full({labels}, 3.0);  // host constant
  auto pos_weight_dev = pos_weight.to(device);   // moved once, before the loop: fine
  PriorSmoother smoother(labels);
  const auto opts = torch::TensorOptions().device(device);

  for (int step = 0; step < 5000; ++step) {
    auto images = torch::rand({32, 3, 96, 96}, opts);
    auto targets = (torch::rand({32, labels}, opts) < 0.05).to(torch::kFloat);
    auto logits = model->forward(images);
    auto bce = torch::binary_cross_entropy_with_logits(logits, targets, {}, pos_weight.to(device));  // BUG(device-loop-invariant-to): pos_weight is loop-invariant: a host-to-device copy on every step (pos_weight_dev above already holds it)
    auto smoothed = smoother.apply(torch::sigmoid(logits));
    auto consistency = torch::binary_cross_entropy(smoothed.clamp(1e-6, 1 - 1e-6), targets);
    auto loss = bce + 0.1 * consistency;
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 500 == 0) {
      auto plain = torch::binary_cross_entropy_with_logits(logits.detach(), targets, {}, pos_weight_dev);
      std::printf("step %d loss %.4f bce %.4f\n", step, loss.item<float>(), plain.item<float>());
    }
  }
}
