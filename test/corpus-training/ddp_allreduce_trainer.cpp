// Data-parallel training, one process per GPU, launched by torchrun-style env vars
// (RANK, LOCAL_RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT). Gradients are averaged
// with an all-reduce on a c10d process group after every accumulation window.
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

// Defined in comm_nccl.cpp, the one file of this project built against NCCL.
c10::intrusive_ptr<c10d::ProcessGroup> make_nccl_group(const c10::intrusive_ptr<c10d::Store>& store, int rank,
                                                       int world_size);

static int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v ? std::atoi(v) : fallback;
}

struct RegressorImpl : torch::nn::Module {
  RegressorImpl() {
    body = register_module("body", torch::nn::Sequential(torch::nn::Linear(32, 256), torch::nn::GELU(),
                                                         torch::nn::Linear(256, 256), torch::nn::GELU(),
                                                         torch::nn::Linear(256, 1)));
  }
  torch::Tensor forward(const torch::Tensor& x) { return body->forward(x).squeeze(-1); }
  torch::nn::Sequential body{nullptr};
};
TORCH_MODULE(Regressor);

static void average_gradients(c10d::ProcessGroup& pg, Regressor& model) {
  for (auto& p : model->parameters()) {
    if (!p.grad().defined()) continue;
    std::vector<torch::Tensor> bucket{p.grad()};
    pg.allreduce(bucket)->wait();
    p.grad().div_(pg.getSize());
  }
}

int main() {
  const int rank = env_int("RANK", 0);
  const int local_rank = env_int("LOCAL_RANK", 0);
  const int world_size = env_int("WORLD_SIZE", 1);
  TORCH_CHECK(torch::cuda::is_available(), "this trainer needs one GPU per process");

  c10d::TCPStoreOptions store_opts;
  store_opts.port = static_cast<uint16_t>(env_int("MASTER_PORT", 29500));
  store_opts.isServer = rank == 0;
  store_opts.numWorkers = world_size;
  const char* master = std::getenv("MASTER_ADDR");
  auto store = c10::make_intrusive<c10d::TCPStore>(master ? master : "127.0.0.1", store_opts);
  auto pg = make_nccl_group(store, rank, world_size);

  const torch::Device device(torch::kCUDA);  // BUG(device-rank-unaware): every process picks the current CUDA device, GPU 0: local_rank is never used, all ranks crowd one GPU and NCCL rejects the duplicate
  std::printf("rank %d (local %d) of %d on %s\n", rank, local_rank, world_size, device.str().c_str());
  torch::manual_seed(1234);  // same initial weights on every rank

  Regressor model;
  model->to(device);
  torch::optim::AdamW opt(model->parameters(), torch::optim::AdamWOptions(1e-3).weight_decay(0.01));

  torch::manual_seed(1000 + rank);  // each rank draws its own shard
  const auto opts = torch::TensorOptions().device(device);
  auto w_true = torch::linspace(-1, 1, 32, opts);
  const int accum = 4;
  for (int step = 0; step < 4000; ++step) {
    auto x = torch::randn({128, 32}, opts);
    auto y = x.matmul(w_true) + 0.1 * torch::randn({128}, opts);
    auto loss = torch::mse_loss(model->forward(x), y) / accum;
    loss.backward();
    if ((step + 1) % accum == 0) {  // gradient accumulation: step and clear once per window
      average_gradients(*pg, model);
      opt.step();
      opt.zero_grad();
    }
    if (rank == 0 && step % 200 == 0) std::printf("step %d loss %.5f\n", step, loss.item<float>() * accum);
  }
  if (rank == 0) torch::save(model, "regressor.pt");
  return 0;
}
