// Robustness evaluation: PGD adversarial examples and a "universal" perturbation optimised directly.
#include <torch/torch.h>

#include <iostream>
#include <vector>

torch::nn::Sequential make_classifier() {
  return torch::nn::Sequential(torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 32, 3).padding(1)), torch::nn::ReLU(),
                               torch::nn::MaxPool2d(2), torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 64, 3).padding(1)),
                               torch::nn::ReLU(), torch::nn::AdaptiveAvgPool2d(1), torch::nn::Flatten(),
                               torch::nn::Linear(64, 10));
}

// Projected gradient descent inside an L-inf ball; images and labels on the model's device.
torch::Tensor pgd(torch::nn::Sequential& model, const torch::Tensor& images, const torch::Tensor& labels, double eps,
                  double step, int iters) {
  auto delta = torch::zeros_like(images).uniform_(-eps, eps).requires_grad_(true);
  for (int i = 0; i < iters; ++i) {
    auto loss = torch::cross_entropy_loss(model->forward(images + delta), labels);
    auto g = torch::autograd::grad({loss}, {delta})[0];
    delta = (delta.detach() + step * g.sign()).clamp(-eps, eps).requires_grad_(true);
  }
  return (images + delta.detach()).clamp(0, 1);
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto model = make_classifier();
  model->to(device);
  model->eval();
  for (auto& p : model->parameters()) p.requires_grad_(false);

  // class frequencies of the evaluation split, used to weight the loss
  std::vector<float> counts = {512, 498, 530, 470, 505, 515, 488, 492, 501, 489};
  auto class_weights = 1.0 / torch::tensor(counts);
  class_weights = class_weights / class_weights.sum();

  // a single perturbation shared by all images, optimised with Adam
  torch::Tensor init;
  torch::load(init, "universal_init.pt", torch::kCPU);
  auto universal = init.clone().requires_grad_(true).to(device);  // BUG(device-mid-graph-to): on a GPU this is a copy of the leaf, not a leaf; Adam rejects it
  torch::optim::Adam opt({universal}, torch::optim::AdamOptions(1e-2));
  auto noise_leaf = torch::randn({1, 3, 32, 32}, torch::requires_grad());
  auto noise_dev = noise_leaf.detach().to(device);

  int64_t clean_hits = 0, adv_hits = 0, seen = 0;
  for (int b = 0; b < 50; ++b) {
    auto images = torch::rand({64, 3, 32, 32}, torch::device(device));
    auto labels = torch::randint(0, 10, {64}, torch::TensorOptions().dtype(torch::kLong).device(device));
    auto w = class_weights.to(device);  // BUG(device-loop-invariant-to): class_weights never changes in the loop; copied to the device every batch
    auto out = model->forward((images + universal + 0.01 * noise_dev).clamp(0, 1));
    auto loss = -torch::nn::functional::cross_entropy(out, labels, torch::nn::functional::CrossEntropyFuncOptions().weight(w));
    opt.zero_grad();
    loss.backward();
    opt.step();

    auto adv = pgd(model, images, labels, 8.0 / 255, 2.0 / 255, 10);
    torch::NoGradGuard no_grad;
    clean_hits += model->forward(images).argmax(1).eq(labels).sum().item<int64_t>();
    adv_hits += model->forward(adv).argmax(1).eq(labels).sum().item<int64_t>();
    seen += labels.size(0);
  }
  std::cout << "clean " << double(clean_hits) / seen << " robust " << double(adv_hits) / seen << "\n";
}
