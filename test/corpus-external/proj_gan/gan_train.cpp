// Trains the DCGAN of gan_model.h on a folder of pre-decoded 64x64 images (random data stands in here).
#include <torch/torch.h>

#include <filesystem>
#include <iostream>

#include "gan_losses.h"
#include "gan_model.h"

class ImageTensorDataset : public torch::data::datasets::Dataset<ImageTensorDataset> {
 public:
  explicit ImageTensorDataset(size_t n) : n_(n) {}
  torch::data::Example<> get(size_t) override { return {torch::rand({3, 64, 64}) * 2 - 1, torch::zeros({})}; }
  torch::optional<size_t> size() const override { return n_; }

 private:
  size_t n_;
};

int main(int argc, char** argv) {
  const bool resume = argc > 1 && std::string(argv[1]) == "--resume";
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  Generator G;
  Discriminator D;
  G->to(device);
  D->to(device);
  if (resume && std::filesystem::exists("ckpt/G.pt")) {
    torch::load(G, "ckpt/G.pt");  // BUG(device-load-without-device): the generator was just moved to device; the load puts its weights back where they were saved
    torch::load(D, "ckpt/D.pt", device);
  }
  torch::optim::Adam opt_g(G->parameters(), torch::optim::AdamOptions(2e-4).betas({0.5, 0.999}));
  torch::optim::Adam opt_d(D->parameters(), torch::optim::AdamOptions(2e-4).betas({0.5, 0.999}));
  auto log_vars = make_loss_log_vars(3, device);
  torch::optim::Adam opt_w({log_vars}, torch::optim::AdamOptions(1e-3));

  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      ImageTensorDataset(20000).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(128).workers(4).drop_last(true));

  auto fixed_noise = torch::randn({64, kLatent, 1, 1});
  fixed_noise.to(device);  // BUG(device-discarded-to): fixed_noise stays on the CPU
  int64_t step = 0;
  for (int epoch = 0; epoch < 25; ++epoch) {
    for (auto& batch : *loader) {
      auto real = batch.data.to(device).requires_grad_(step % 16 == 0);
      auto z = torch::randn({real.size(0), kLatent, 1, 1}, torch::device(device));
      auto fake = G->forward(z);

      auto d_real = D->forward(real);
      auto d_fake = D->forward(fake.detach());
      auto d_loss = discriminator_loss(d_real.first, d_fake.first);
      if (step % 16 == 0) d_loss = d_loss + 5.0 * r1_penalty(d_real.first, real);
      opt_d.zero_grad();
      d_loss.backward();
      opt_d.step();

      auto g_out = D->forward(fake);
      auto terms = torch::stack({generator_loss(g_out.first), feature_matching_loss(d_real.second.detach(), g_out.second),
                                 diversity_loss(fake, z)});
      auto g_loss = (terms * torch::exp(-log_vars) + log_vars).sum();
      opt_g.zero_grad();
      opt_w.zero_grad();
      g_loss.backward();
      opt_g.step();
      opt_w.step();
      ++step;
    }
    torch::NoGradGuard no_grad;
    G->eval();
    auto preview = G->forward(fixed_noise);
    auto extra = G->sample(16);
    G->train();
    std::filesystem::create_directories("ckpt");
    torch::save(torch::cat({preview, extra}).cpu(), "ckpt/preview_" + std::to_string(epoch) + ".pt");
    torch::save(G, "ckpt/G.pt");
    torch::save(D, "ckpt/D.pt");
    std::cout << "epoch " << epoch << " done\n";
  }
}
