// dcgan: noise injection and minibatch standard deviation.
#include "dcg_blocks.h"

namespace dcg {

NoiseInjectionImpl::NoiseInjectionImpl(int64_t channels) {
  weight_ = register_parameter("weight", torch::zeros({1, channels, 1, 1}));
}

torch::Tensor NoiseInjectionImpl::forward(const torch::Tensor& x) {
  auto noise = torch::randn({x.size(0), 1, x.size(2), x.size(3)});  // BUG(device-factory-without-device): Generator (dcg_nets.cpp) registers this block and dcg_train.cpp moves it to the device; the noise is drawn on the CPU and meets x
  return x + weight_ * noise;
}

torch::Tensor MinibatchStdDevImpl::forward(const torch::Tensor& x) {
  auto stddev = x.std(0).mean();
  return torch::cat({x, stddev.expand({x.size(0), 1, x.size(2), x.size(3)})}, 1);
}

}  // namespace dcg
