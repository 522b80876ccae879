// dcgan: evaluation entry point: sample from the saved generator and print one image as text.
#include <iostream>

#include "dcg_nets.h"

int main(int argc, char** argv) {
  const std::string ckpt = argc > 1 ? argv[1] : "/tmp/torch-tidy-corpus-projects/dcg_generator.pt";
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  dcg::Generator G(8);
  G->to(device);
  torch::load(G, ckpt, device);
  G->eval();

  torch::NoGradGuard no_grad;
  auto z = torch::randn({4, 8, 1, 1}, torch::device(device));
  auto images = G->forward(z).cpu();
  auto px = images.accessor<float, 4>();
  for (int64_t y = 0; y < 16; y += 2) {
    for (int64_t x = 0; x < 16; ++x) std::cout << (px[0][0][y][x] > 0 ? '#' : '.');
    std::cout << "\n";
  }
  return 0;
}
