// Offline scoring of a large embedding file with a TorchScript model, one process per
// GPU: `score --rank R --world-size N model.pt features.pt`. Rank R scores rows
// R, R+N, R+2N, ... and writes scores_R.pt.
#include <torch/script.h>
#include <torch/torch.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

struct Args {
  int rank = 0;
  int world_size = 1;
  std::string model_path, features_path;
  int64_t batch = 4096;
};

static Args parse_args(int argc, char** argv) {
  Args a;
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--rank" && i + 1 < argc) a.rank = std::atoi(argv[++i]);
    else if (arg == "--world-size" && i + 1 < argc) a.world_size = std::atoi(argv[++i]);
    else if (arg == "--batch" && i + 1 < argc) a.batch = std::atoll(argv[++i]);
    else positional.push_back(arg);
  }
  if (positional.size() != 2) {
    std::fprintf(stderr, "usage: score --rank R --world-size N model.pt features.pt\n");
    std::exit(2);
  }
  a.model_path = positional[0];
  a.features_path = positional[1];
  return a;
}

// One GPU per process; the CPU when there is none.
static torch::Device pick_device(int rank) {
  if (!torch::cuda::is_available()) return torch::Device(torch::kCPU);
  std::printf("rank %d: %zu GPUs visible\n", rank, torch::cuda::device_count());
  return torch::Device(torch::kCUDA);  // BUG(device-rank-unaware): the rank is printed but not used: every process scores on GPU 0 while the other GPUs idle
}

int main(int argc, char** argv) {
  const Args args = parse_args(argc, argv);
  const torch::Device device = pick_device(args.rank);

  torch::jit::script::Module model = torch::jit::load(args.model_path, device);
  model.eval();

  torch::Tensor features;
  torch::load(features, args.features_path, torch::Device(torch::kCPU));
  auto mine = torch::arange(args.rank, features.size(0), args.world_size, torch::kLong);
  auto shard = features.index_select(0, mine);

  std::vector<torch::Tensor> scores;
  {
    c10::InferenceMode inference;  // the scoring loop records no graph
    for (int64_t i = 0; i < shard.size(0); i += args.batch) {
      auto rows = shard.narrow(0, i, std::min(args.batch, shard.size(0) - i)).to(device, /*non_blocking=*/true);
      std::vector<torch::jit::IValue> inputs{rows};
      scores.push_back(torch::sigmoid(model.forward(inputs).toTensor()).squeeze(-1));
    }
  }
  auto all = torch::cat(scores).cpu();  // one copy back, after the loop
  torch::save(std::vector<torch::Tensor>{mine, all}, "scores_" + std::to_string(args.rank) + ".pt");
  std::printf("rank %d scored %lld rows\n", args.rank, static_cast<long long>(all.size(0)));
  return 0;
}
