// k-means over embeddings produced by a frozen encoder on the GPU: Lloyd iterations with a
// convergence test, re-seeding of empty clusters, then per-cluster exports sized by their counts.
#include <torch/torch.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <vector>

torch::nn::Sequential encoder() {
  return torch::nn::Sequential(torch::nn::Linear(128, 256), torch::nn::ReLU(), torch::nn::Linear(256, 32));
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto enc = encoder();
  enc->to(device);
  enc->eval();
  torch::NoGradGuard no_grad;

  std::vector<torch::Tensor> parts;
  for (int i = 0; i < 40; ++i) parts.push_back(enc->forward(torch::randn({1024, 128}).to(device)));
  auto X = torch::nn::functional::normalize(torch::cat(parts), torch::nn::functional::NormalizeFuncOptions().dim(1));
  const int64_t k = 16, n = X.size(0), d = X.size(1);

  auto centroids = X.index_select(0, torch::randperm(n, torch::TensorOptions().dtype(torch::kLong).device(device)).slice(0, 0, k));
  auto assign = torch::full({n}, -1, torch::TensorOptions().dtype(torch::kLong).device(device));
  std::vector<double> inertia_trace;

  for (int iter = 0; iter < 100; ++iter) {
    auto dist = torch::cdist(X, centroids);
    auto [min_dist, new_assign] = dist.min(1);
    if (new_assign.equal(assign)) break;  // SYNC(necessary): convergence test decides whether to iterate again
    assign = new_assign;
    auto counts = torch::bincount(assign, {}, k);
    auto sums = torch::zeros({k, d}, X.options()).index_add_(0, assign, X);
    auto new_centroids = sums / counts.clamp_min(1).unsqueeze(1).to(X.dtype());
    if (counts.min().item<int64_t>() == 0) {  // SYNC(necessary): an empty cluster is re-seeded before the next assignment
      auto empty = (counts == 0).nonzero().squeeze(1);
      auto far = std::get<1>(min_dist.topk(empty.size(0)));
      new_centroids.index_copy_(0, empty, X.index_select(0, far));
    }
    centroids = new_centroids;
    inertia_trace.push_back(min_dist.pow(2).sum().item<double>());  // BUG(device-sync-in-loop): avoidable: a trace printed only after the iterations
  }
  for (size_t i = 0; i < inertia_trace.size(); ++i) std::cout << i << ' ' << inertia_trace[i] << '\n';

  // Refinement with a tolerance on how far the centroids move.
  for (int iter = 0; iter < 20; ++iter) {
    auto a = torch::cdist(X, centroids).argmin(1);
    auto counts = torch::bincount(a, {}, k).clamp_min(1).unsqueeze(1).to(X.dtype());
    auto moved = torch::zeros({k, d}, X.options()).index_add_(0, a, X) / counts;
    auto shift = (moved - centroids).norm(2, 1).max();
    centroids = moved;
    if (shift.item<float>() < 1e-4f) break;  // SYNC(necessary): stops the refinement once the centroids settle
  }

  // Distances of every member to its centroid, per cluster, for the spread report printed below.
  std::vector<std::vector<float>> member_dists(k);
  {
    auto dmin = std::get<0>(torch::cdist(X, centroids).min(1));
    auto a = torch::cdist(X, centroids).argmin(1);
    for (int64_t c = 0; c < k; ++c) {
      auto dc = dmin.index({a == c}).contiguous().cpu();  // BUG(device-sync-in-loop): avoidable: a tolist()-style copy per cluster, only read after the loop
      member_dists[c] = std::vector<float>(dc.data_ptr<float>(), dc.data_ptr<float>() + dc.numel());  // SYNC(cpu): reads the host copy made on the line above
    }
  }
  for (int64_t c = 0; c < k; ++c) {
    auto& v = member_dists[c];
    std::sort(v.begin(), v.end());
    std::cout << "cluster " << c << " size " << v.size() << " median dist " << (v.empty() ? 0.f : v[v.size() / 2]) << '\n';
  }

  // Export each cluster to its own binary file, sized by the cluster's population.
  auto final_assign = torch::cdist(X, centroids).argmin(1);
  for (int64_t c = 0; c < k; ++c) {
    auto member_mask = final_assign == c;
    int64_t members = member_mask.sum().item<int64_t>();  // SYNC(necessary): sizes the host buffer below
    std::vector<float> buffer(static_cast<size_t>(members * d));
    if (members == 0) continue;
    auto rows = X.index({member_mask}).contiguous().cpu();  // SYNC(necessary): the rows are written to a file in this iteration
    std::copy(rows.data_ptr<float>(), rows.data_ptr<float>() + rows.numel(), buffer.begin());  // SYNC(cpu): reads the host copy made on the line above
    std::ofstream out("cluster_" + std::to_string(c) + ".bin", std::ios::binary);
    out.write(reinterpret_cast<const char*>(buffer.data()), static_cast<std::streamsize>(buffer.size() * sizeof(float)));
  }
  return 0;
}
