// Distributed training started by a launcher that passes `--local_rank=N` (and sets
// RANK/WORLD_SIZE/MASTER_* for the rendezvous). Losses are all-reduced for logging,
// gradients for the update.
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

// Implemented in distributed_init.cpp (linked against NCCL).
c10::intrusive_ptr<c10d::ProcessGroup> init_process_group(const std::string& backend, int rank, int world_size);

struct Options {
  int local_rank = 0;
  int epochs = 3;
};

static Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--local_rank=", 0) == 0) o.local_rank = std::stoi(arg.substr(13));
    else if (arg.rfind("--epochs=", 0) == 0) o.epochs = std::stoi(arg.substr(9));
  }
  return o;
}

static torch::nn::Sequential make_model() {
  return torch::nn::Sequential(torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 32, 3)), torch::nn::ReLU(),
                               torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 64, 3)), torch::nn::ReLU(),
                               torch::nn::AdaptiveAvgPool2d(1), torch::nn::Flatten(), torch::nn::Linear(64, 10));
}

int main(int argc, char** argv) {
  const Options opt_args = parse(argc, argv);
  const int rank = std::atoi(std::getenv("RANK") ? std::getenv("RANK") : "0");
  const int world = std::atoi(std::getenv("WORLD_SIZE") ? std::getenv("WORLD_SIZE") : "1");
  auto pg = init_process_group("nccl", rank, world);

  const torch::Device device(torch::cuda::is_available() ? "cuda" : "cpu");  // BUG(device-rank-unaware): --local_rank is parsed but the device ignores it: every process of the node trains on GPU 0
  auto model = make_model();
  model->to(device);
  {  // start from rank 0's weights
    torch::NoGradGuard no_grad;
    for (auto& p : model->parameters()) {
      std::vector<torch::Tensor> t{p};
      pg->broadcast(t)->wait();
    }
  }
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.02).momentum(0.9));
  auto data = torch::data::datasets::MNIST("mnist").map(torch::data::transforms::Stack<>());
  auto sampler = torch::data::samplers::DistributedRandomSampler(data.size().value(), world, rank);
  auto loader = torch::data::make_data_loader(std::move(data), sampler, torch::data::DataLoaderOptions(64));

  for (int epoch = 0; epoch < opt_args.epochs; ++epoch) {
    int64_t step = 0;
    for (auto& batch : *loader) {
      auto x = batch.data.to(device), y = batch.target.to(device);
      auto loss = torch::cross_entropy_loss(model->forward(x), y);
      opt.zero_grad();
      loss.backward();
      for (auto& p : model->parameters()) {
        std::vector<torch::Tensor> g{p.grad()};
        pg->allreduce(g)->wait();
        p.grad().div_(world);
      }
      opt.step();
      if (rank == 0 && step % 100 == 0)
        std::printf("epoch %d step %lld loss %.4f\n", epoch, static_cast<long long>(step), loss.item<float>());
      ++step;
    }
  }
  if (rank == 0) torch::save(model, "mnist_ddp.pt");
}
