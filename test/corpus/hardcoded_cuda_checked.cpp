// The same script, but it checks for a GPU first: unconditional CUDA after the check is fine.
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
  if (!torch::cuda::is_available()) {
    std::cerr << "this benchmark needs a CUDA device\n";
    return 1;
  }
  Autoencoder ae;
  ae->to(torch::kCUDA);
  torch::optim::Adam opt(ae->parameters(), 1e-3);
  auto data = torch::rand({256, 784});
  for (int epoch = 0; epoch < 10; ++epoch) {
    for (int64_t i = 0; i < 256; i += 64) {
      auto x = data.slice(0, i, i + 64).cuda();
      auto recon = ae->forward(x);
      auto loss = torch::binary_cross_entropy(recon, x);
      opt.zero_grad();
      loss.backward();
      opt.step();
    }
  }
  torch::NoGradGuard no_grad;
  auto sample = ae->forward(data.slice(0, 0, 1).to(torch::kCUDA));
  std::cout << sample.sum().item<float>() << '\n';
}
