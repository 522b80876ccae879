// Per-process device selection for data-parallel workers launched one per GPU (rank from the environment).
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>
#include <string>

torch::Device select_device(int local_rank) {
  if (!torch::cuda::is_available()) return torch::Device(torch::kCPU);
  const int count = static_cast<int>(torch::cuda::device_count());
  return torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(local_rank % count));
}

std::string describe(const torch::Device& d) {
  switch (d.type()) {
    case torch::kCUDA:
      return d == torch::Device(torch::kCUDA, 0) ? "primary GPU" : "GPU " + std::to_string(d.index());
    case torch::kCPU:
      return "CPU";
    default:
      return d.str();
  }
}

struct ShardWorker {
  torch::Device device;
  torch::nn::Sequential model;
  std::unique_ptr<torch::optim::SGD> opt;

  explicit ShardWorker(torch::Device dev)
      : device(dev),
        model(torch::nn::Linear(128, 256), torch::nn::ReLU(), torch::nn::Linear(256, 10)) {
    model->to(device);
    opt = std::make_unique<torch::optim::SGD>(model->parameters(), torch::optim::SGDOptions(0.1));
  }

  double step(const torch::Tensor& x_host, const torch::Tensor& y_host) {
    auto x = x_host.to(device, /*non_blocking=*/true);
    auto y = y_host.to(device, /*non_blocking=*/true);
    auto loss = torch::cross_entropy_loss(model->forward(x), y);
    opt->zero_grad();
    loss.backward();
    opt->step();
    return loss.item<double>();
  }
};

int main() {
  const char* env = std::getenv("LOCAL_RANK");
  const int local_rank = env ? std::atoi(env) : 0;
  torch::Device device = select_device(local_rank);
  std::cout << "rank " << local_rank << " on " << describe(device) << "\n";

  std::string spec = device.is_cuda() ? "cuda:" + std::to_string(device.index()) : "cpu";
  torch::Device parsed(spec);
  if (parsed != device) std::cerr << "device string round trip failed\n";

  ShardWorker worker(device);
  if (std::getenv("RESUME")) torch::load(worker.model, "worker.pt", device);
  for (int step = 0; step < 100; ++step) {
    auto x = torch::randn({64, 128});
    auto y = torch::randint(0, 10, {64}, torch::kLong);
    double loss = worker.step(x, y);
    if (step % 20 == 0) std::cout << "step " << step << " loss " << loss << "\n";
  }
  if (local_rank == 0) torch::save(worker.model, "worker.pt");
}
