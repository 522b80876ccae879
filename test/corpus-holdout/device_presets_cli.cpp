// Command-line front end of a batch-inference tool: `infer --preset fast|safe|debug`
// or `infer --device <spec>`. Presets map to devices; shapes are checked on the meta
// device before any real allocation.
#include <torch/torch.h>

#include <cstdio>
#include <map>
#include <string>

static const std::map<std::string, std::string> kPresets = {
    {"fast", "CUDA:0"},  // BUG(device-invalid-string): device types are lower case; torch::Device("CUDA:0") throws when this preset is chosen
    {"safe", "cpu"},
    {"debug", "cpu"},
};

static torch::Device device_from_args(int argc, char** argv) {
  for (int i = 1; i + 1 < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--device") return torch::Device(std::string(argv[i + 1]));  // a user's spec, checked by LibTorch at run time
    if (flag == "--preset") return torch::Device(kPresets.at(argv[i + 1]));
  }
  return torch::cuda::is_available() ? torch::Device("cuda") : torch::Device("cpu");
}

static torch::Device secondary_device() {
  if (!torch::cuda::is_available()) return torch::Device("cpu");
  if (torch::cuda::device_count() > 1) return torch::Device("cuda1");  // BUG(device-invalid-string): "cuda1" lacks the ':'; LibTorch rejects it on every multi-GPU machine
  return torch::Device("gpu");  // BUG(device-invalid-string): LibTorch has no "gpu" device type; the spelling is "cuda"
}

static torch::nn::Sequential build_model() {
  return torch::nn::Sequential(torch::nn::Linear(512, 1024), torch::nn::GELU(), torch::nn::Linear(1024, 10));
}

int main(int argc, char** argv) {
  // Shape check without allocating: a meta-device copy of the model.
  {
    auto probe = build_model();
    probe->to(torch::Device("meta"));
    auto out = probe->forward(torch::empty({3, 512}, torch::TensorOptions().device(torch::Device("meta"))));
    TORCH_CHECK(out.size(1) == 10, "unexpected head size");
  }

  const torch::Device device = device_from_args(argc, argv);
  const torch::Device aux = secondary_device();
  auto model = build_model();
  model->to(device);
  model->eval();
  auto calibration = torch::nn::Linear(10, 10);
  calibration->to(aux);

  torch::NoGradGuard no_grad;
  auto x = torch::randn({64, 512}, torch::TensorOptions().device(device));
  auto logits = calibration->forward(model->forward(x).to(aux));
  const torch::Device host("Cpu");  // BUG(device-invalid-string): device types are lower case: "Cpu" throws before any result is copied back
  auto top = logits.argmax(1).to(host);
  std::printf("top class of first row: %lld\n", static_cast<long long>(top[0].item<int64_t>()));
}
