// graph: X W aggregated over the normalised adjacency; the edge mask follows the adjacency.
#include "gcn_layers.h"

namespace gcn {

GraphConvImpl::GraphConvImpl(int64_t in, int64_t out) {
  weight_ = register_parameter("weight", torch::randn({in, out}) * std::sqrt(2.0 / static_cast<double>(in + out)));
  bias_ = register_parameter("bias", torch::zeros({out}));
}

torch::Tensor GraphConvImpl::forward(const torch::Tensor& x, const torch::Tensor& adjacency) {
  return adjacency.mm(x.mm(weight_)) + bias_;
}

torch::Tensor DropEdgeImpl::forward(const torch::Tensor& adjacency) {
  if (!is_training()) return adjacency;
  auto keep = torch::bernoulli(torch::full_like(adjacency, 1.0 - p_));
  return adjacency * keep / (1.0 - p_);
}

}  // namespace gcn
