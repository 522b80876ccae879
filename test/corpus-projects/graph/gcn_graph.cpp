// graph: dense within a community, sparse across; features noisy one-hots of the community.
#include "gcn_graph.h"

namespace gcn {

torch::Tensor add_self_loops(const torch::Tensor& adjacency) { return adjacency + torch::eye(adjacency.size(0)); }

torch::Tensor normalize_adjacency(const torch::Tensor& adjacency) {
  auto inv_sqrt = adjacency.sum(1).pow(-0.5);
  return inv_sqrt.unsqueeze(1) * adjacency * inv_sqrt.unsqueeze(0);
}

Graph make_graph(int64_t nodes_per_class, int64_t classes, int64_t feature_dim) {
  const int64_t v = nodes_per_class * classes;
  auto labels = torch::div(torch::arange(v), nodes_per_class, "floor");
  auto same = labels.unsqueeze(0).eq(labels.unsqueeze(1)).to(torch::kFloat);
  auto edges = torch::bernoulli(same * 0.3 + 0.02);
  edges = torch::triu(edges, 1);
  auto adjacency = normalize_adjacency(add_self_loops(edges + edges.t()));
  auto features = torch::randn({v, feature_dim}) * 0.5;
  features.slice(1, 0, classes).add_(torch::one_hot(labels, classes).to(torch::kFloat));
  auto train_mask = (torch::arange(v) % 3).eq(0);
  return {features, adjacency, labels, train_mask};
}

Graph to_device(const Graph& g, torch::Device device) {
  return {g.features.to(device), g.adjacency.to(device), g.labels.to(device), g.train_mask.to(device)};
}

}  // namespace gcn
