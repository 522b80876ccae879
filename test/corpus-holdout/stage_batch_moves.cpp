// Speech-enhancement training loop (magnitude-mask estimation). Batches are staged
// onto the device by small helpers.
#include <torch/torch.h>

#include <cstdio>
#include <vector>

struct Batch {
  torch::Tensor noisy, clean, lengths;
};

static Batch synth_batch(int64_t b, int64_t frames) {
  auto clean = torch::rand({b, 257, frames});
  return {clean + 0.3 * torch::rand({b, 257, frames}), clean, torch::full({b}, frames, torch::kLong)};
}

static void stage(torch::Tensor& t, torch::Device device) {
  t.to(device, /*non_blocking=*/true);  // BUG(device-discarded-to): the moved copy is thrown away; the caller's tensor stays in host memory
}

static torch::Tensor staged(const torch::Tensor& t, torch::Device device) { return t.to(device, /*non_blocking=*/true); }

struct MaskNetImpl : torch::nn::Module {
  MaskNetImpl() {
    gru = register_module("gru", torch::nn::GRU(torch::nn::GRUOptions(257, 256).num_layers(2).batch_first(true)));
    out = register_module("out", torch::nn::Linear(256, 257));
  }
  torch::Tensor forward(const torch::Tensor& mag) {  // [B, F, T]
    auto y = std::get<0>(gru->forward(mag.transpose(1, 2)));
    return torch::sigmoid(out->forward(y)).transpose(1, 2);
  }
  torch::nn::GRU gru{nullptr};
  torch::nn::Linear out{nullptr};
};
TORCH_MODULE(MaskNet);

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  MaskNet net;
  net->to(device);
  torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(5e-4));

  for (int step = 0; step < 4000; ++step) {
    Batch b = synth_batch(16, 200);
    b.noisy = staged(b.noisy, device);
    stage(b.clean, device);
    auto mask = net->forward(b.noisy);
    auto frames = torch::arange(200, b.noisy.options().dtype(torch::kLong));
    b.lengths.to(device);  // BUG(device-discarded-to): the statement moves nothing: b.lengths is still the host tensor
    auto valid = (frames.unsqueeze(0) < b.lengths.unsqueeze(1)).unsqueeze(1).to(torch::kFloat);
    auto loss = ((mask * b.noisy - b.clean).abs() * valid).sum() / valid.sum() / 257;
    opt.zero_grad();
    loss.backward();
    opt.step();
    if (step % 250 == 0) std::printf("step %d loss %.5f\n", step, loss.item<float>());
  }
  std::vector<torch::Tensor> snapshot = net->parameters();
  for (auto& p : snapshot) p = p.detach().to(torch::kCPU);  // by reference, result kept
  torch::save(snapshot, "masknet_params.pt");
}
