// dcgan: training entry point: alternating D and G steps on synthetic 16x16 "digits".
#include <iostream>

#include "dcg_losses.h"
#include "dcg_nets.h"

namespace {

constexpr int64_t kNz = 8;

// Bright vertical or horizontal bars in [-1, 1].
torch::Tensor real_batch(int64_t n) {
  auto images = torch::full({n, 1, 16, 16}, -1.0);
  for (int64_t i = 0; i < n; ++i) {
    if (i % 2) images[i][0].slice(1, 6, 10).fill_(1.0);
    else images[i][0].slice(0, 6, 10).fill_(1.0);
  }
  return images;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string ckpt = argc > 1 ? argv[1] : "/tmp/torch-tidy-corpus-projects/dcg_generator.pt";
  torch::manual_seed(0);
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  dcg::Generator G(kNz);
  dcg::Discriminator D;
  dcg::FeatureNet features;
  G->to(device);
  D->to(device);
  torch::optim::Adam opt_g(G->parameters(), torch::optim::AdamOptions(2e-4).betas({0.5, 0.999}));
  torch::optim::Adam opt_d(D->parameters(), torch::optim::AdamOptions(2e-4).betas({0.5, 0.999}));

  auto fixed_noise = torch::randn({4, kNz, 1, 1});
  fixed_noise.to(device);  // BUG(device-discarded-to): the result is dropped; fixed_noise stays on the CPU for the preview below

  for (int step = 0; step < 4; ++step) {
    auto real = real_batch(8).to(device);
    auto z = torch::randn({8, kNz, 1, 1}, torch::device(device));
    auto fake = G->forward(z);

    opt_d.zero_grad();
    auto ld = dcg::d_loss(D->forward(real), D->forward(fake.detach()));
    ld.backward();
    opt_d.step();

    opt_g.zero_grad();
    auto lg = dcg::g_loss(D->forward(fake)) + 0.1 * dcg::feature_matching_loss(features, real, fake);
    lg.backward();
    opt_g.step();
    std::cout << "step " << step << " d " << ld.item<float>() << " g " << lg.item<float>() << "\n";
  }

  torch::NoGradGuard no_grad;
  G->eval();
  std::cout << "preview mean " << G->forward(fixed_noise).mean().item<float>() << "\n";
  torch::save(G, ckpt);
  return 0;
}
