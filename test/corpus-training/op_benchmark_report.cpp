// Micro-benchmark of a few kernels on the configured device. The configuration is a
// key=value file (device=cuda, iters=50, half=true); results go to a CSV line.
#include <torch/torch.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <regex>
#include <string>

struct BenchConfig {
  std::string device_name = "cuda";
  int iters = 50;
  bool half = false;
};

static BenchConfig read_config(const std::string& path) {
  BenchConfig cfg;
  std::ifstream in(path);
  const std::regex kv(R"(^\s*(\w+)\s*=\s*(\S+)\s*$)");
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (!std::regex_match(line, m, kv)) continue;
    if (m.str(1) == "device") cfg.device_name = m.str(2);  // parsing the file, not a device
    else if (m.str(1) == "iters") cfg.iters = std::stoi(m.str(2));
    else if (m.str(1) == "half") cfg.half = m.str(2) == "true";
  }
  return cfg;
}

// The name of the device a tensor lives on, for the report.
static std::string device_name(const torch::Tensor& t) { return t.device().str(); }

static void wait_for_device(const torch::Tensor& probe) {
  if (c10::DeviceTypeName(probe.device().type()) == "cuda") torch::cuda::synchronize();  // BUG(device-string-compare): DeviceTypeName spells it "CUDA" (upper case by default): never true, so the timings never wait for the GPU
}

template <typename Fn>
static double time_ms(const torch::Tensor& probe, int iters, Fn&& fn) {
  fn();  // warm-up
  wait_for_device(probe);
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < iters; ++i) fn();
  wait_for_device(probe);  // once, after the timed loop
  const auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(t1 - t0).count() / iters;
}

int main(int argc, char** argv) {
  BenchConfig cfg = read_config(argc > 1 ? argv[1] : "bench.cfg");
  if (cfg.device_name == "cuda" && !torch::cuda::is_available()) cfg.device_name = "cpu";
  const torch::Device device(cfg.device_name);
  std::printf("benchmarking on %s, %d iterations\n", device.str().c_str(), cfg.iters);

  auto a = torch::randn({2048, 2048}, torch::TensorOptions().device(device));
  if (a.device().str() == "cuda" && cfg.half) a = a.to(torch::kHalf);  // BUG(device-string-compare): a tensor's device always carries its index ("cuda:0"): never true, half=true is silently ignored
  auto conv = torch::nn::Conv2d(torch::nn::Conv2dOptions(64, 64, 3).padding(1));
  conv->to(device);
  auto img = torch::randn({16, 64, 56, 56}, torch::TensorOptions().device(device));

  torch::NoGradGuard no_grad;  // pure timing: no graph is needed
  const double mm_ms = time_ms(a, cfg.iters, [&] { torch::mm(a, a); });
  const double conv_ms = time_ms(img, cfg.iters, [&] { conv->forward(img); });
  const double sm_ms = time_ms(img, cfg.iters, [&] { torch::softmax(img, 1); });

  const bool on_gpu = device_name(img) == "cuda";  // BUG(device-string-compare): device_name() returns "cuda:0" for a tensor on the GPU, so every GPU run is filed as "cpu"
  std::ofstream csv("bench.csv", std::ios::app);
  csv << (on_gpu ? "gpu" : "cpu") << ',' << (a.scalar_type() == torch::kHalf ? "fp16" : "fp32") << ','
      << mm_ms << ',' << conv_ms << ',' << sm_ms << '\n';
  if (device.type() == torch::kCUDA) std::printf("%d visible GPUs\n", static_cast<int>(torch::cuda::device_count()));
  return 0;
}
