#include "gan_model.h"

namespace nn = torch::nn;

namespace {
void add_up(nn::Sequential& s, int64_t in, int64_t out) {
  s->push_back(nn::ConvTranspose2d(nn::ConvTranspose2dOptions(in, out, 4).stride(2).padding(1).bias(false)));
  s->push_back(nn::BatchNorm2d(out));
  s->push_back(nn::ReLU(true));
}
void add_down(nn::Sequential& s, int64_t in, int64_t out, bool norm) {
  s->push_back(nn::Conv2d(nn::Conv2dOptions(in, out, 4).stride(2).padding(1).bias(!norm)));
  if (norm) s->push_back(nn::BatchNorm2d(out));
  s->push_back(nn::LeakyReLU(nn::LeakyReLUOptions().negative_slope(0.2).inplace(true)));
}
}  // namespace

GeneratorImpl::GeneratorImpl(int64_t ngf) {
  nn::Sequential s(nn::ConvTranspose2d(nn::ConvTranspose2dOptions(kLatent, ngf * 8, 4).bias(false)), nn::BatchNorm2d(ngf * 8),
                   nn::ReLU(true));
  add_up(s, ngf * 8, ngf * 4);
  add_up(s, ngf * 4, ngf * 2);
  add_up(s, ngf * 2, ngf);
  s->push_back(nn::ConvTranspose2d(nn::ConvTranspose2dOptions(ngf, 3, 4).stride(2).padding(1).bias(false)));
  s->push_back(nn::Tanh());
  net_ = register_module("net", s);
}

torch::Tensor GeneratorImpl::forward(const torch::Tensor& z) { return net_->forward(z); }

torch::Tensor GeneratorImpl::sample(int64_t n) {
  torch::NoGradGuard no_grad;
  auto z = torch::randn({n, kLatent, 1, 1});  // BUG(device-factory-without-device): CPU noise into net_, whose weights gan_train.cpp moved to the device
  return forward(z);
}

DiscriminatorImpl::DiscriminatorImpl(int64_t ndf) {
  nn::Sequential f;
  add_down(f, 3, ndf, false);
  add_down(f, ndf, ndf * 2, true);
  add_down(f, ndf * 2, ndf * 4, true);
  add_down(f, ndf * 4, ndf * 8, true);
  features_ = register_module("features", f);
  head_ = nn::Sequential(nn::Conv2d(nn::Conv2dOptions(ndf * 8, 1, 4)), nn::Flatten());
}

std::pair<torch::Tensor, torch::Tensor> DiscriminatorImpl::forward(const torch::Tensor& images) {
  auto f = features_->forward(images);
  return {head_->forward(f), f.flatten(1)};
}
