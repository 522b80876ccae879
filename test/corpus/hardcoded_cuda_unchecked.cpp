// A script that assumes a GPU and never checks for one: it dies on a CPU-only runner.
#include <torch/torch.h>

#include <iostream>

struct AutoencoderImpl : torch::nn::Module {
  AutoencoderImpl() {
    enc = register_module("enc", torch::nn::Linear(784, 32));
    dec = register_module("dec", torch::nn::Linear(32, 784));
  }
  torch::Tensor forward(const torch::Tensor& x) {
    return torch::sigmoid(dec->forward(torch::relu(enc->forward(x))));
  }
  torch::nn::Linear enc{nullptr}, dec{nullptr};
};
TORCH_MODULE(Autoencoder);

int main() {
  Autoencoder ae;
  ae->to(torch::kCUDA);  // BUG(device-hardcoded): unconditional CUDA; the program never checks torch::cuda::is_available()
  torch::optim::Adam opt(ae->parameters(), 1e-3);
  auto data = torch::rand({256, 784});
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (int64_t i = 0; i < 256; i += 64) {
      auto x = data.slice(0, i, i + 64).cuda();  // BUG(device-hardcoded): unconditional .cuda() without an availability check
      auto recon = ae->forward(x);
      auto loss = torch::binary_cross_entropy(recon, x);
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
  }
  auto sample = ae->forward(data.slice(0, 0, 1).to(ae->parameters().front().device()));
  std::cout << sample.sum().item<float>() << '\n';
}
