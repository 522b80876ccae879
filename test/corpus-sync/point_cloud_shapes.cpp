// Point-cloud segmentation training with padded clouds: each batch is trimmed to its longest
// cloud, positive points are gathered into a buffer sized by their count, outliers are removed
// iteratively before training, and a curriculum raises the difficulty on the training accuracy.
#include <torch/torch.h>

#include <iostream>
#include <vector>

struct PointNetImpl : torch::nn::Module {
  PointNetImpl()
      : mlp1(register_module("mlp1", torch::nn::Linear(3, 64))),
        mlp2(register_module("mlp2", torch::nn::Linear(64 + 64, 2))) {}
  torch::Tensor forward(const torch::Tensor& pts) {  // B x N x 3 -> B x N x 2
    auto f = torch::relu(mlp1(pts));
    auto g = std::get<0>(f.max(1, true)).expand_as(f);
    return mlp2(torch::cat({f, g}, -1));
  }
  torch::nn::Linear mlp1, mlp2;
};
TORCH_MODULE(PointNet);

struct CloudBatch {
  torch::Tensor points;   // B x 2048 x 3, padded
  torch::Tensor labels;   // B x 2048
  torch::Tensor lengths;  // B, int64: built by the collate function on the CPU
};

CloudBatch collate(int level) {
  std::vector<int64_t> lens;
  for (int b = 0; b < 8; ++b) lens.push_back(512 + 64 * ((b * 7 + level) % 24));
  return {torch::randn({8, 2048, 3}), torch::randint(0, 2, {8, 2048}), torch::tensor(lens)};
}

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  PointNet net;
  net->to(device);
  torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(1e-3));

  // Statistical outlier removal on a reference scan, repeated until nothing is removed.
  auto scan = torch::randn({4096, 3}).to(device);
  int rounds = 0;
  auto outliers = torch::ones({1}, torch::TensorOptions().dtype(torch::kInt).device(device));
  while (outliers.sum().item<int>() > 0 && rounds++ < 10) {  // SYNC(necessary): the loop condition
    auto d = std::get<0>(torch::cdist(scan, scan).topk(9, 1, false)).mean(1);
    auto bad = d > d.mean() + 2 * d.std();
    outliers = bad.to(torch::kInt);
    scan = scan.index({~bad});
  }

  int level = 0;
  float pos_frac_sum = 0.f;
  for (int step = 0; step < 3000; ++step) {
    auto b = collate(level);
    int64_t host_max = b.lengths.max().item<int64_t>();  // SYNC(cpu): lengths come from the CPU collate and are never moved
    auto lengths = b.lengths.to(device);
    auto pts = b.points.to(device), labels = b.labels.to(device);
    // Trim the padding to the longest cloud, measured on the device copy of the lengths.
    int64_t max_len = lengths.max().item<int64_t>();  // SYNC(necessary): sizes the narrow() below
    pts = pts.narrow(1, 0, max_len);
    labels = labels.narrow(1, 0, max_len);
    auto valid = torch::arange(max_len, lengths.options()).unsqueeze(0) < lengths.unsqueeze(1);

    auto logits = net->forward(pts);
    auto loss = torch::cross_entropy_loss(logits.index({valid}), labels.index({valid}));
    opt.zero_grad();
    loss.backward();
    opt.step();

    // Positive points go to a hard-negative buffer whose size is their count.
    auto pos = (labels == 1) & valid;
    int64_t n_pos = pos.sum().item<int64_t>();  // SYNC(necessary): sizes the buffer allocated next
    auto buffer = torch::empty({n_pos, 3}, pts.options());
    buffer.copy_(pts.index({pos}));
    pos_frac_sum += pos.to(torch::kFloat).mean().item().toFloat();  // BUG(device-sync-in-loop): avoidable: a statistic averaged after training
    if (step % 100 == 99) {
      auto acc = (logits.argmax(-1) == labels).index({valid}).to(torch::kFloat).mean();
      if (acc.item<float>() > 0.9f) ++level;  // SYNC(rare): every 100 steps, and it decides the next batches' difficulty
    }
    if (host_max > 2000) std::cout << "long batch at step " << step << '\n';
  }
  std::cout << "mean positive fraction " << pos_frac_sum / 3000 << '\n';
  return 0;
}
