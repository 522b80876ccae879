// Convolutional denoising autoencoder; early stopping on the validation loss.
#include <torch/torch.h>

#include <cstdio>
#include <limits>

struct DenoiserImpl : torch::nn::Module {
  DenoiserImpl() {
    enc = register_module("enc", torch::nn::Sequential(
        torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 32, 3).stride(2).padding(1)), torch::nn::ReLU(),
        torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 64, 3).stride(2).padding(1)), torch::nn::ReLU()));
    dec = register_module("dec", torch::nn::Sequential(
        torch::nn::ConvTranspose2d(torch::nn::ConvTranspose2dOptions(64, 32, 4).stride(2).padding(1)), torch::nn::ReLU(),
        torch::nn::ConvTranspose2d(torch::nn::ConvTranspose2dOptions(32, 1, 4).stride(2).padding(1)), torch::nn::Sigmoid()));
  }
  torch::Tensor forward(const torch::Tensor& x) { return dec->forward(enc->forward(x)); }
  torch::nn::Sequential enc{nullptr}, dec{nullptr};
};
TORCH_MODULE(Denoiser);

int main() {
  torch::Device device(torch::kCPU);
  if (torch::cuda::is_available()) device = torch::Device(torch::kCUDA);
  const auto opts = torch::TensorOptions().device(device);

  auto clean_train = torch::rand({6000, 1, 32, 32}, opts);
  auto clean_val = torch::rand({1000, 1, 32, 32}, opts);
  Denoiser model;
  model->to(device);
  torch::optim::RMSprop opt(model->parameters(), torch::optim::RMSpropOptions(1e-3));

  double best = std::numeric_limits<double>::infinity();
  int patience = 3;
  const int64_t bs = 100;
  for (int epoch = 0; epoch < 100 && patience > 0; ++epoch) {
    model->train();
    auto train_sum = torch::zeros({}, opts);
    for (int64_t i = 0; i < clean_train.size(0); i += bs) {
      auto clean = clean_train.narrow(0, i, bs);
      auto noisy = (clean + 0.2 * torch::randn_like(clean)).clamp(0, 1);
      model->zero_grad();  // the module's gradients: exactly the optimizer's parameters
      auto loss = torch::mse_loss(model->forward(noisy), clean);
      loss.backward();
      opt.step();
      train_sum += loss.detach();
    }

    model->eval();
    auto val_sum = torch::zeros({}, opts);
    for (int64_t i = 0; i < clean_val.size(0); i += bs) {
      auto clean = clean_val.narrow(0, i, bs);
      auto noisy = (clean + 0.2 * torch::randn_like(clean)).clamp(0, 1);
      val_sum += torch::mse_loss(model->forward(noisy), clean);  // BUG(training-inference-without-no-grad): validation with autograd on; val_sum (not detached) chains the graphs of all validation batches until the epoch's read below
    }
    const double val = val_sum.item<double>() / (clean_val.size(0) / bs);  // once per epoch
    std::printf("epoch %d train %.5f val %.5f\n", epoch, train_sum.item<double>() / (clean_train.size(0) / bs), val);
    if (val < best) {
      best = val;
      patience = 3;
      torch::save(model, "denoiser_best.pt");
    } else {
      --patience;
    }
  }
}
