// dcgan: transposed convolutions up, strided convolutions down.
#include "dcg_nets.h"

namespace dcg {

using torch::nn::Conv2dOptions;
using torch::nn::ConvTranspose2dOptions;

GeneratorImpl::GeneratorImpl(int64_t nz) {
  up1_ = register_module("up1", torch::nn::ConvTranspose2d(ConvTranspose2dOptions(nz, 32, 4).bias(false)));
  bn1_ = register_module("bn1", torch::nn::BatchNorm2d(32));
  noise_ = register_module("noise", NoiseInjection(32));
  up2_ = register_module("up2", torch::nn::ConvTranspose2d(ConvTranspose2dOptions(32, 16, 4).stride(2).padding(1).bias(false)));
  bn2_ = register_module("bn2", torch::nn::BatchNorm2d(16));
  up3_ = register_module("up3", torch::nn::ConvTranspose2d(ConvTranspose2dOptions(16, 1, 4).stride(2).padding(1)));
}

torch::Tensor GeneratorImpl::forward(const torch::Tensor& z) {
  auto x = torch::relu(bn1_(up1_(z)));  // 4x4
  x = noise_(x);
  x = torch::relu(bn2_(up2_(x)));  // 8x8
  return torch::tanh(up3_(x));     // 16x16
}

DiscriminatorImpl::DiscriminatorImpl() {
  mbstd_ = register_module("mbstd", MinibatchStdDev());
  c1_ = register_module("c1", torch::nn::Conv2d(Conv2dOptions(2, 16, 4).stride(2).padding(1)));
  c2_ = register_module("c2", torch::nn::Conv2d(Conv2dOptions(16, 32, 4).stride(2).padding(1)));
  out_ = register_module("out", torch::nn::Linear(32 * 4 * 4, 1));
}

torch::Tensor DiscriminatorImpl::forward(const torch::Tensor& images) {
  auto x = torch::leaky_relu(c1_(mbstd_(images)), 0.2);
  x = torch::leaky_relu(c2_(x), 0.2);
  return out_(x.flatten(1));
}

}  // namespace dcg
