// Hyper-parameter sweep launched with `mpirun -np <GPUs>`: every MPI process fine-tunes
// a copy of a pretrained tagger with its own learning rate on its own GPU, and writes
// its validation score. The local rank comes from the MPI launcher's environment.
#include <torch/torch.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

static int local_rank_from_env() {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MV2_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID"})
    if (const char* v = std::getenv(name)) return std::atoi(v);
  return 0;
}

struct TaggerImpl : torch::nn::Module {
  TaggerImpl(int64_t vocab, int64_t tags) {
    emb = register_module("emb", torch::nn::Embedding(vocab, 128));
    lstm = register_module("lstm", torch::nn::LSTM(torch::nn::LSTMOptions(128, 128).bidirectional(true).batch_first(true)));
    out = register_module("out", torch::nn::Linear(256, tags));
  }
  torch::Tensor forward(const torch::Tensor& tokens) {
    return out->forward(std::get<0>(lstm->forward(emb->forward(tokens))));
  }
  torch::nn::Embedding emb{nullptr};
  torch::nn::LSTM lstm{nullptr};
  torch::nn::Linear out{nullptr};
};
TORCH_MODULE(Tagger);

int main() {
  const int local_rank = local_rank_from_env();
  TORCH_CHECK(torch::cuda::is_available(), "the sweep runs one process per GPU");
  const torch::Device device(torch::kCUDA, static_cast<c10::DeviceIndex>(local_rank));
  const double lrs[] = {3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 1e-1, 3e-1, 1.0};
  const double lr = lrs[local_rank % 8];

  Tagger model(30000, 17);
  torch::load(model, "tagger_pretrained.pt", torch::Device(torch::kCUDA));  // BUG(device-rank-unaware): the archive is read onto the current CUDA device, GPU 0, in every process: all eight fine-tunes share GPU 0 and their data (on `device`) sits on another GPU
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(lr));

  auto to_gpu = [](const torch::Tensor& t) { return t.to(torch::kCUDA, /*non_blocking=*/true); };  // BUG(device-rank-unaware): batches go to GPU 0 in every process, whatever its local rank
  torch::manual_seed(local_rank);
  for (int step = 0; step < 2000; ++step) {
    auto tokens = to_gpu(torch::randint(0, 30000, {32, 40}, torch::kLong));
    auto tags = to_gpu(torch::randint(0, 17, {32, 40}, torch::kLong));
    auto loss = torch::cross_entropy_loss(model->forward(tokens).reshape({-1, 17}), tags.reshape({-1}));
    opt.zero_grad();
    loss.backward();
    opt.step();
  }

  model->eval();
  torch::NoGradGuard no_grad;
  auto val_tokens = torch::randint(0, 30000, {512, 40}, torch::TensorOptions().dtype(torch::kLong).device(device));
  auto val_tags = torch::randint(0, 17, {512, 40}, torch::TensorOptions().dtype(torch::kLong).device(device));
  const double acc = model->forward(val_tokens).argmax(-1).eq(val_tags).to(torch::kFloat).mean().item<double>();
  std::ofstream("sweep_rank" + std::to_string(local_rank) + ".txt") << lr << ' ' << acc << '\n';
  return 0;
}
