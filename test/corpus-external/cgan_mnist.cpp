// Conditional GAN on MNIST: both networks see a learned embedding of the class label.
#include <torch/torch.h>

#include <iostream>

constexpr int64_t kNz = 64;
constexpr int64_t kClasses = 10;

struct CondGeneratorImpl : torch::nn::Module {
  CondGeneratorImpl()
      : embed(register_module("embed", torch::nn::Embedding(kClasses, kClasses))),
        net(register_module("net", torch::nn::Sequential(
                                       torch::nn::Linear(kNz + kClasses, 256), torch::nn::LeakyReLU(),
                                       torch::nn::Linear(256, 512), torch::nn::LeakyReLU(),
                                       torch::nn::Linear(512, 784), torch::nn::Tanh()))) {}
  torch::Tensor forward(const torch::Tensor& z, const torch::Tensor& labels) {
    return net->forward(torch::cat({z, embed(labels)}, 1)).view({-1, 1, 28, 28});
  }
  torch::nn::Embedding embed;
  torch::nn::Sequential net;
};
TORCH_MODULE(CondGenerator);

struct CondDiscriminatorImpl : torch::nn::Module {
  CondDiscriminatorImpl()
      : embed(register_module("embed", torch::nn::Embedding(kClasses, kClasses))),
        net(register_module("net", torch::nn::Sequential(
                                       torch::nn::Linear(784 + kClasses, 512), torch::nn::LeakyReLU(),
                                       torch::nn::Dropout(0.3), torch::nn::Linear(512, 1)))) {}
  torch::Tensor forward(const torch::Tensor& img, const torch::Tensor& labels) {
    return net->forward(torch::cat({img.flatten(1), embed(labels)}, 1));
  }
  torch::nn::Embedding embed;
  torch::nn::Sequential net;
};
TORCH_MODULE(CondDiscriminator);

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  CondGenerator G;
  CondDiscriminator D;
  G->to(device);
  D->to(device);
  torch::optim::Adam opt_g(G->parameters(), torch::optim::AdamOptions(2e-4).betas({0.5, 0.999}));
  torch::optim::Adam opt_d(D->parameters(), torch::optim::AdamOptions(2e-4).betas({0.5, 0.999}));

  auto dataset = torch::data::datasets::MNIST("./data")
                     .map(torch::data::transforms::Normalize<>(0.5, 0.5))
                     .map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader(std::move(dataset), torch::data::DataLoaderOptions().batch_size(64));

  for (int epoch = 0; epoch < 20; ++epoch) {
    for (auto& batch : *loader) {
      auto real = batch.data.to(device);
      auto labels = batch.target.to(device);
      const int64_t B = real.size(0);
      auto ones = torch::ones({B, 1}, real.options());
      auto zeros = torch::zeros_like(ones);

      // discriminator
      auto noise = torch::randn({B, kNz}, torch::device(device));
      auto fake = G->forward(noise, labels);
      auto d_loss = torch::binary_cross_entropy_with_logits(D->forward(real, labels), ones) +
                    torch::binary_cross_entropy_with_logits(D->forward(fake.detach(), labels), zeros);
      opt_d.zero_grad();
      d_loss.backward();
      opt_d.step();

      // generator: fresh noise and random classes
      auto gen_labels = torch::randint(0, kClasses, {B}, torch::kLong);
      auto z = torch::randn({B, kNz}, torch::device(device));
      auto gen = G->forward(z, gen_labels);  // BUG(device-unmoved-input): gen_labels is a CPU index tensor; G's embedding is on device
      auto g_loss = torch::binary_cross_entropy_with_logits(D->forward(gen, gen_labels.to(device)), ones);
      opt_g.zero_grad();
      g_loss.backward();
      opt_g.step();
    }
    std::cout << "epoch " << epoch << " done\n";
  }
}
