// NeRF-style stratified sampling of points along rays.
#include <torch/torch.h>

#include <iostream>

struct Rays {
  torch::Tensor origins;     // [R, 3]
  torch::Tensor directions;  // [R, 3]
};

torch::Tensor sample_points_buggy(const Rays& rays, double near, double far, int64_t n, torch::Device device) {
  auto o = rays.origins.to(device);
  auto d = rays.directions.to(device);
  auto t = torch::linspace(near, far, n);  // BUG(device-factory-without-device): CPU depths meet the device rays below
  auto jitter = torch::rand({o.size(0), n}, o.options()) * ((far - near) / static_cast<double>(n));
  auto depths = t.unsqueeze(0) + jitter;
  return o.unsqueeze(1) + d.unsqueeze(1) * depths.unsqueeze(2);
}

torch::Tensor sample_points(const Rays& rays, double near, double far, int64_t n, torch::Device device) {
  auto o = rays.origins.to(device);
  auto d = rays.directions.to(device);
  auto t = torch::linspace(near, far, n, o.options());
  auto jitter = torch::rand_like(t.expand({o.size(0), n})) * ((far - near) / static_cast<double>(n));
  auto depths = t.unsqueeze(0) + jitter;
  return o.unsqueeze(1) + d.unsqueeze(1) * depths.unsqueeze(2);
}

torch::Tensor positional_encoding(const torch::Tensor& x, int64_t freqs) {
  auto bands = torch::pow(2.0, torch::arange(freqs, x.options())) * M_PI;
  auto scaled = x.unsqueeze(-1) * bands;
  return torch::cat({torch::sin(scaled), torch::cos(scaled)}, -1).flatten(-2);
}

int main() {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  Rays rays{torch::zeros({1024, 3}), torch::nn::functional::normalize(torch::randn({1024, 3}))};
  auto p1 = sample_points_buggy(rays, 2.0, 6.0, 64, device);
  auto p2 = sample_points(rays, 2.0, 6.0, 64, device);
  auto enc = positional_encoding(p2, 10);
  auto bg = torch::ones({3});  // white background, composited on the CPU preview below
  auto preview = enc.flatten(0, 1).mean(0).narrow(0, 0, 3).cpu() * 0.5 + bg * 0.5;
  std::cout << p1.sizes() << enc.sizes() << preview << '\n';
}
