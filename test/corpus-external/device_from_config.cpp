// Launcher that reads devices from a small key=value config: main device, offload device, preview.
#include <torch/torch.h>

#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

struct RunConfig {
  std::string device = "auto";
  int rank = 0;
  bool offload_optimizer = false;
  bool preview = false;
};

RunConfig read_config(const std::string& path) {
  RunConfig cfg;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    auto key = line.substr(0, eq), value = line.substr(eq + 1);
    if (key == "device") cfg.device = value;
    if (key == "rank") cfg.rank = std::stoi(value);
    if (key == "offload") cfg.offload_optimizer = value == "1";
    if (key == "preview") cfg.preview = value == "1";
  }
  return cfg;
}

torch::Device choose_device(const RunConfig& cfg) {
  if (cfg.device == "auto")
    return torch::cuda::is_available() ? torch::Device("cuda") : torch::Device("CPU");  // BUG(device-invalid-string): device types are lower-case; "CPU" throws on every machine without a GPU
  if (cfg.device == "ddp") return torch::Device("cuda:" + std::to_string(cfg.rank));
  return torch::Device(cfg.device);
}

struct ScalerImpl : torch::nn::Module {
  ScalerImpl() {
    // the buffer's name only looks like a device
    gain = register_buffer("cuda0", torch::ones({8}));
    lin = register_module("lin", torch::nn::Linear(8, 8));
  }
  torch::Tensor forward(const torch::Tensor& x) { return lin(x * gain); }
  torch::Tensor gain;
  torch::nn::Linear lin{nullptr};
};
TORCH_MODULE(Scaler);

int main(int argc, char** argv) {
  RunConfig cfg = read_config(argc > 1 ? argv[1] : "run.cfg");
  torch::Device device = choose_device(cfg);
  std::cout << "running on " << device << " (GPU available: " << torch::cuda::is_available() << ")\n";

  Scaler model;
  model->to(device);
  torch::optim::SGD opt(model->parameters(), 0.01);

  // keep a host-side master copy of the weights when offloading
  torch::Tensor master;
  if (cfg.offload_optimizer) master = model->lin->weight.detach().to("cpu").clone();

  auto x = torch::randn({16, 8}, torch::TensorOptions().device(device));
  for (int step = 0; step < 100; ++step) {
    auto loss = model->forward(x).pow(2).mean();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }

  if (cfg.preview && torch::cuda::device_count() > 1) {
    // preview renders on the second card so training is not disturbed
    auto snapshot = x.to("cuda1");  // BUG(device-invalid-string): "cuda1" is not a device string (missing ':'); throws
    auto canvas = torch::zeros({3, 256, 256}, torch::TensorOptions().device("cuda: 1"));  // BUG(device-invalid-string): the space makes LibTorch reject it
    std::cout << snapshot.sum().item<float>() + canvas.sum().item<float>() << "\n";
  }
  torch::Device export_device("cuda:1");
  if (torch::cuda::device_count() > 1) torch::save(model->lin->weight.to(export_device), "weight.pt");
  torch::Device fallback("Cuda:0");  // BUG(device-invalid-string): case matters: "Cuda" is not a device type
  if (!torch::cuda::is_available()) std::cout << "no GPU; fallback would be " << fallback << "\n";
}
