// graph: a two-layer GCN node classifier.
#pragma once
#include <torch/torch.h>

#include "gcn_layers.h"

namespace gcn {

class GCNImpl : public torch::nn::Module {
 public:
  GCNImpl(int64_t in, int64_t hidden, int64_t classes);
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& adjacency);

 private:
  GraphConv conv1_{nullptr}, conv2_{nullptr};
  DropEdge drop_edge_{nullptr};
  torch::nn::Dropout dropout_{nullptr};
};
TORCH_MODULE(GCN);

}  // namespace gcn
