// graph: a graph convolution and edge dropout.
#pragma once
#include <torch/torch.h>

namespace gcn {

class GraphConvImpl : public torch::nn::Module {
 public:
  GraphConvImpl(int64_t in, int64_t out);
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& adjacency);

 private:
  torch::Tensor weight_, bias_;
};
TORCH_MODULE(GraphConv);

// Drops each edge with probability p while training.
class DropEdgeImpl : public torch::nn::Module {
 public:
  explicit DropEdgeImpl(double p) : p_(p) {}
  torch::Tensor forward(const torch::Tensor& adjacency);

 private:
  double p_;
};
TORCH_MODULE(DropEdge);

}  // namespace gcn
