// Multi-GPU evaluation of checkpoints, one process per GPU (RANK / LOCAL_RANK /
// WORLD_SIZE from the launcher). Every device is derived from the local rank; rank 0
// gathers the per-rank scores from files. No known bug in this file.
#include <torch/torch.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

static int env_or(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v ? std::atoi(v) : fallback;
}

static torch::Device device_for(int local_rank) {
  if (!torch::cuda::is_available()) return torch::Device(torch::kCPU);
  const auto n = static_cast<int>(torch::cuda::device_count());
  return torch::Device("cuda:" + std::to_string(local_rank % n));
}

struct ScoreNetImpl : torch::nn::Module {
  ScoreNetImpl() {
    body = register_module("body", torch::nn::Sequential(torch::nn::Linear(64, 128), torch::nn::ReLU(),
                                                         torch::nn::Linear(128, 1)));
  }
  torch::Tensor forward(const torch::Tensor& x) { return body->forward(x).squeeze(-1); }
  torch::nn::Sequential body{nullptr};
};
TORCH_MODULE(ScoreNet);

int main() {
  const int rank = env_or("RANK", 0), local_rank = env_or("LOCAL_RANK", 0), world = env_or("WORLD_SIZE", 1);
  const torch::Device device = device_for(local_rank);
  if (device.type() == torch::kCUDA) std::printf("rank %d evaluates on GPU %d\n", rank, static_cast<int>(device.index()));

  std::vector<std::string> ckpts;
  for (int i = rank; i < 40; i += world) ckpts.push_back("ckpt_" + std::to_string(i) + ".pt");

  const auto opts = torch::TensorOptions().device(device);
  torch::manual_seed(0);  // the same evaluation set on every rank
  auto x = torch::randn({10000, 64}, opts);
  auto y = torch::randn({10000}, opts);

  std::ofstream out("eval_rank" + std::to_string(rank) + ".txt");
  c10::InferenceMode guard;
  for (const auto& path : ckpts) {
    ScoreNet net;
    torch::load(net, path, device);
    net->eval();
    auto mse = torch::zeros({}, opts);
    for (int64_t i = 0; i < x.size(0); i += 2000)
      mse += torch::mse_loss(net->forward(x.narrow(0, i, 2000)), y.narrow(0, i, 2000), at::Reduction::Sum);
    out << path << ' ' << (mse / x.size(0)).to(torch::kCPU).item<double>() << '\n';  // once per checkpoint
  }
  out.close();

  // Rank 0 prints the best checkpoint among the result files written so far.
  if (rank == 0) {
    std::string best;
    double best_mse = 1e30;
    for (int r = 0; r < world; ++r) {
      std::ifstream in("eval_rank" + std::to_string(r) + ".txt");
      std::string name;
      double v;
      while (in >> name >> v)
        if (v < best_mse) best_mse = v, best = name;
    }
    std::printf("best checkpoint %s (mse %.5f)\n", best.c_str(), best_mse);
  }
  return 0;
}
