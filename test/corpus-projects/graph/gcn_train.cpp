// graph: training entry point (full-batch Adam on the labelled nodes).
#include <iostream>

#include "gcn_graph.h"
#include "gcn_model.h"

int main(int argc, char** argv) {
  const std::string ckpt = argc > 1 ? argv[1] : "/tmp/torch-tidy-corpus-projects/gcn_model.pt";
  torch::manual_seed(0);
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

  auto g = gcn::to_device(gcn::make_graph(10, 3, 8), device);
  gcn::GCN model(8, 16, 3);
  model->to(device);
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-2).weight_decay(5e-4));

  for (int epoch = 0; epoch < 10; ++epoch) {
    model->train();
    opt.zero_grad();
    auto logits = model->forward(g.features, g.adjacency);
    auto loss = torch::nn::functional::cross_entropy(logits.index({g.train_mask}), g.labels.index({g.train_mask}));
    loss.backward();
    opt.step();
    if (epoch % 5 == 0) std::cout << "epoch " << epoch << " loss " << loss.item<float>() << "\n";
  }
  torch::save(model, ckpt);
  return 0;
}
