// Licence-plate reader: a spatial-transformer-style rectifier, a conv encoder and one
// 36-way classifier per character position (7 positions). Crops come from a JPEG
// decoder that writes grayscale pixels into host buffers.
#include <torch/torch.h>

#include <cstdint>
#include <cstdio>
#include <vector>

constexpr int64_t kPositions = 7, kAlphabet = 36;

struct PlateNetImpl : torch::nn::Module {
  PlateNetImpl() {
    rectify_ = torch::nn::Sequential(torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 1, 5).padding(2)), torch::nn::Tanh());
    encoder = register_module("encoder", torch::nn::Sequential(
        torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 32, 3).padding(1)), torch::nn::ReLU(), torch::nn::MaxPool2d(2),
        torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 64, 3).padding(1)), torch::nn::ReLU(),
        torch::nn::AdaptiveAvgPool2d(torch::nn::AdaptiveAvgPool2dOptions({1, kPositions}))));
    classify = register_module("classify", torch::nn::Linear(64, kAlphabet));
  }
  torch::Tensor forward(const torch::Tensor& crops) {  // [B, 1, 32, 96] -> [B, 7, 36]
    auto x = crops + rectify_->forward(crops);
    auto f = encoder->forward(x).squeeze(2).transpose(1, 2);  // [B, 7, 64]
    return classify->forward(f);
  }
  torch::nn::Sequential rectify_{nullptr};  // BUG(device-unregistered-member): built in the constructor but not registered: net->to(device) leaves its convolution on the CPU and the optimizer never sees it
  torch::nn::Sequential encoder{nullptr};
  torch::nn::Linear classify{nullptr};
};
TORCH_MODULE(PlateNet);

struct PlateBatch {
  std::vector<torch::Tensor> crops;  // [1, 32, 96] each
  torch::Tensor chars;               // [B, 7] long
};

static torch::Tensor wrap_decoded(std::vector<uint8_t>& pixels, const torch::TensorOptions& opts) {
  return torch::from_blob(pixels.data(), {1, 32, 96}, opts);  // BUG(device-from-blob): decode_batch() passes the training device in opts; the decoder's buffer is host memory
}

static PlateBatch decode_batch(std::vector<std::vector<uint8_t>>& jpeg_out, torch::Device device) {
  PlateBatch b;
  for (auto& px : jpeg_out) b.crops.push_back(wrap_decoded(px, torch::TensorOptions().dtype(torch::kUInt8).device(device)).clone());
  b.chars = torch::randint(0, kAlphabet, {static_cast<int64_t>(jpeg_out.size()), kPositions}, torch::kLong);
  return b;
}

static void normalize_crops(std::vector<torch::Tensor>& crops, torch::Device device) {
  for (torch::Tensor c : crops) c = c.to(device, torch::kFloat).div(255.0);  // BUG(device-loop-copy-to): c is a copy of the element: the vector keeps the uint8 crops where they were
}

static torch::Tensor flat_targets(PlateBatch& b, torch::Device device) {
  b.chars.to(device);  // BUG(device-discarded-to): the move is dropped; b.chars stays a host tensor
  return b.chars.reshape({-1});
}

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  PlateNet net;
  net->to(device);
  torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(1e-3));
  std::vector<std::vector<uint8_t>> decoder_out(32, std::vector<uint8_t>(32 * 96, 128));

  for (int step = 0; step < 5000; ++step) {
    PlateBatch b = decode_batch(decoder_out, device);
    normalize_crops(b.crops, device);
    auto logits = net->forward(torch::stack(b.crops).to(device, torch::kFloat));
    auto prior = logits.detach().log_softmax(-1).mean(0).cpu();  // per-position class prior, kept for the log
    auto calibrated = logits - prior;  // BUG(device-mismatch): prior was just copied to the host; logits are on the device
    auto loss = torch::cross_entropy_loss(calibrated.reshape({-1, kAlphabet}), flat_targets(b, device));
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 500 == 0) std::printf("step %d loss %.4f prior max %.3f\n", step, loss.item<float>(), prior.max().item<float>());
  }
}
