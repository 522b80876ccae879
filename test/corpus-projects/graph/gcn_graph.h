// graph: a synthetic citation-like graph with community structure.
#pragma once
#include <torch/torch.h>

namespace gcn {

struct Graph {
  torch::Tensor features;    // (V, F)
  torch::Tensor adjacency;   // (V, V) normalised, with self loops
  torch::Tensor labels;      // (V) int64
  torch::Tensor train_mask;  // (V) bool
};

Graph make_graph(int64_t nodes_per_class, int64_t classes, int64_t feature_dim);
// Every tensor of `g` on `device`.
Graph to_device(const Graph& g, torch::Device device);
// A + I, and D^-1/2 (A + I) D^-1/2.
torch::Tensor add_self_loops(const torch::Tensor& adjacency);
torch::Tensor normalize_adjacency(const torch::Tensor& adjacency);

}  // namespace gcn
