// graph: conv -> relu -> dropout -> conv, with edge dropout on the first layer.
#include "gcn_model.h"

namespace gcn {

GCNImpl::GCNImpl(int64_t in, int64_t hidden, int64_t classes) {
  conv1_ = register_module("conv1", GraphConv(in, hidden));
  conv2_ = register_module("conv2", GraphConv(hidden, classes));
  drop_edge_ = register_module("drop_edge", DropEdge(0.1));
  dropout_ = register_module("dropout", torch::nn::Dropout(0.3));
}

torch::Tensor GCNImpl::forward(const torch::Tensor& x, const torch::Tensor& adjacency) {
  auto h = dropout_(torch::relu(conv1_(x, drop_edge_(adjacency))));
  return conv2_(h, adjacency);
}

}  // namespace gcn
