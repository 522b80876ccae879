// graph: evaluation entry point: accuracy on the unlabelled nodes and per-class counts.
#include <iostream>

#include "gcn_graph.h"
#include "gcn_model.h"

int main(int argc, char** argv) {
  const std::string ckpt = argc > 1 ? argv[1] : "/tmp/torch-tidy-corpus-projects/gcn_model.pt";
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  gcn::GCN model(8, 16, 3);
  model->to(device);
  torch::load(model, ckpt, device);
  model->eval();
  torch::NoGradGuard no_grad;

  torch::manual_seed(0);
  auto g = gcn::to_device(gcn::make_graph(10, 3, 8), device);
  auto logits = model->forward(g.features, g.adjacency);
  auto pred = logits.argmax(1);
  auto per_class = torch::zeros({3}, logits.options()).index_add_(0, pred, torch::ones_like(pred, logits.options()));
  auto test = g.train_mask.logical_not();
  auto hits = pred.index({test}).eq(g.labels.index({test})).cpu();
  auto h = hits.accessor<bool, 1>();
  int64_t correct = 0;
  for (int64_t i = 0; i < h.size(0); ++i) correct += h[i];
  std::cout << "test accuracy " << static_cast<double>(correct) / h.size(0) << " predicted per class "
            << per_class.cpu() << "\n";
  return 0;
}
