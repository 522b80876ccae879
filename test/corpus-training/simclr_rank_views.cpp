// SimCLR-style contrastive pre-training, one process per GPU (LOCAL_RANK from the
// environment, a c10d process group for the gradient all-reduce).
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>

#include <cstdio>
#include <cstdlib>

// Provided by the launcher glue (comm.cpp): a NCCL group over all ranks.
c10::intrusive_ptr<c10d::ProcessGroup> join_world(int rank, int world_size);

struct EncoderImpl : torch::nn::Module {
  EncoderImpl() {
    backbone = register_module("backbone", torch::nn::Sequential(
        torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 64, 3).padding(1)), torch::nn::BatchNorm2d(64), torch::nn::ReLU(),
        torch::nn::Conv2d(torch::nn::Conv2dOptions(64, 128, 3).stride(2).padding(1)), torch::nn::BatchNorm2d(128),
        torch::nn::ReLU(), torch::nn::AdaptiveAvgPool2d(1), torch::nn::Flatten()));
    projector = register_module("projector", torch::nn::Sequential(torch::nn::Linear(128, 128), torch::nn::ReLU(),
                                                                   torch::nn::Linear(128, 64)));
  }
  torch::Tensor forward(const torch::Tensor& x) {
    return torch::nn::functional::normalize(projector->forward(backbone->forward(x)),
                                            torch::nn::functional::NormalizeFuncOptions().dim(1));
  }
  torch::nn::Sequential backbone{nullptr}, projector{nullptr};
};
TORCH_MODULE(Encoder);

// Random horizontal flip + brightness jitter + gaussian noise, per image.
static torch::Tensor augment(const torch::Tensor& images) {
  auto cuda = torch::TensorOptions().device(torch::kCUDA);  // BUG(device-rank-unaware): the random factors are drawn on GPU 0 in every process; on rank r > 0 they meet images on GPU r
  auto flip = torch::rand({images.size(0), 1, 1, 1}, cuda) < 0.5;
  auto out = torch::where(flip, images.flip({3}), images);
  auto gain = 0.6 + 0.8 * torch::rand({images.size(0), 1, 1, 1}, cuda);
  return (out * gain + 0.05 * torch::randn(images.sizes(), cuda)).clamp(0, 1);
}

static torch::Tensor nt_xent(const torch::Tensor& z1, const torch::Tensor& z2, double tau) {
  auto z = torch::cat({z1, z2});
  const int64_t n = z1.size(0);
  auto sim = z.matmul(z.t()) / tau;
  sim = sim.masked_fill(torch::eye(2 * n, z.options().dtype(torch::kBool)), -1e9);
  auto targets = torch::cat({torch::arange(n, 2 * n, z.options().dtype(torch::kLong)),
                             torch::arange(0, n, z.options().dtype(torch::kLong))});
  return torch::cross_entropy_loss(sim, targets);
}

int main() {
  const int rank = std::atoi(std::getenv("RANK") ? std::getenv("RANK") : "0");
  const int local_rank = std::atoi(std::getenv("LOCAL_RANK") ? std::getenv("LOCAL_RANK") : "0");
  const int world = std::atoi(std::getenv("WORLD_SIZE") ? std::getenv("WORLD_SIZE") : "1");
  TORCH_CHECK(torch::cuda::is_available(), "contrastive pre-training needs GPUs");
  const torch::Device device(torch::kCUDA, static_cast<c10::DeviceIndex>(local_rank));
  auto pg = join_world(rank, world);

  torch::manual_seed(42);
  Encoder enc;
  enc->to(device);
  torch::optim::SGD opt(enc->parameters(), torch::optim::SGDOptions(0.3).momentum(0.9).weight_decay(1e-6));

  torch::manual_seed(42 + rank);
  for (int step = 0; step < 10000; ++step) {
    auto images = torch::rand({256, 3, 32, 32}, torch::TensorOptions().device(device));
    auto loss = nt_xent(enc->forward(augment(images)), enc->forward(augment(images)), 0.2);
    opt.zero_grad();
    loss.backward();
    for (auto& p : enc->parameters()) {
      std::vector<torch::Tensor> g{p.grad()};
      pg->allreduce(g)->wait();
      p.grad().div_(world);
    }
    opt.step();
    if (rank == 0 && step % 250 == 0) std::printf("step %d  nt-xent %.4f\n", step, loss.item<float>());
  }
  if (rank == 0) torch::save(enc, "simclr_encoder.pt");
}
