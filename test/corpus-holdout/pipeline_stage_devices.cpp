// Two-stage model-parallel inference: the encoder and the decoder of a large
// autoencoder sit on different GPUs when there are several, else on one device.
#include <torch/torch.h>

#include <cstdio>
#include <string>
#include <vector>

struct Placement {
  torch::Device encoder{torch::kCPU};
  torch::Device decoder{torch::kCPU};
};

static Placement plan_placement() {
  Placement p;
  if (!torch::cuda::is_available()) return p;
  const auto n = static_cast<c10::DeviceIndex>(torch::cuda::device_count());
  p.encoder = torch::Device(torch::kCUDA);       // the current GPU
  p.decoder = torch::Device(torch::kCUDA, n - 1);  // the last one (the same GPU on a one-GPU machine)
  return p;
}

static torch::nn::Sequential encoder() {
  return torch::nn::Sequential(torch::nn::Linear(4096, 2048), torch::nn::ReLU(), torch::nn::Linear(2048, 256));
}
static torch::nn::Sequential decoder() {
  return torch::nn::Sequential(torch::nn::Linear(256, 2048), torch::nn::ReLU(), torch::nn::Linear(2048, 4096));
}

// Hands the latent code to the decoder's GPU.
static torch::Tensor to_decoder_stage(const torch::Tensor& z) {
  return z.to(torch::Device(torch::kCUDA, 1), /*non_blocking=*/true);  // BUG(device-hardcoded): GPU 1 is assumed: on a one-GPU machine (where plan_placement() put the decoder on GPU 0) this throws an invalid device ordinal
}

static torch::Tensor reconstruction_error(const torch::Tensor& x, const torch::Tensor& x_hat) {
  return (x.to(x_hat.device()) - x_hat).pow(2).mean(1);
}

static void dump_codes(const std::vector<torch::Tensor>& codes, const std::string& path) {
  auto all = torch::cat(codes).to(torch::Device("cuda:0"));  // BUG(device-hardcoded): a literal GPU 0 for what is only a concatenation before saving; throws on CPU-only hosts, where codes are on the CPU
  torch::save(all.cpu(), path);
}

int main() {
  const Placement place = plan_placement();
  auto enc = encoder(), dec = decoder();
  torch::load(enc, "ae_encoder.pt", place.encoder);
  torch::load(dec, "ae_decoder.pt", place.decoder);
  enc->eval();
  dec->eval();

  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> codes;
  auto total = torch::zeros({}, torch::TensorOptions().device(place.decoder));
  for (int b = 0; b < 100; ++b) {
    auto x = torch::rand({64, 4096}, torch::TensorOptions().device(place.encoder));
    auto z = enc->forward(x);
    codes.push_back(z);
    auto x_hat = dec->forward(to_decoder_stage(z));
    total += reconstruction_error(x, x_hat).sum();
  }
  dump_codes(codes, "codes.pt");
  std::printf("mean reconstruction error %.5f\n", total.item<double>() / 6400.0);
}
