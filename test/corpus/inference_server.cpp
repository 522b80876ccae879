// A tiny batch inference service around a TorchScript model.
#include <torch/torch.h>
#include <torch/script.h>

#include <cstring>
#include <mutex>
#include <string>
#include <vector>

struct Request {
  std::vector<float> features;  // 64 floats
};

struct Response {
  std::vector<float> scores;
};

class Predictor {
 public:
  Predictor(const std::string& path, torch::Device device)
      : device_(device), module_(torch::jit::load(path, device)) {
    module_.eval();
  }

  std::vector<Response> predict(std::vector<Request>& requests) {
    std::lock_guard<std::mutex> lock(mu_);
    torch::InferenceMode guard;
    std::vector<torch::Tensor> rows;
    for (auto& r : requests) {
      // Host memory, host options: then an owning copy on the device.
      rows.push_back(torch::from_blob(r.features.data(), {64}, torch::kFloat32).to(device_));
    }
    auto batch = torch::stack(rows);
    auto scores = torch::sigmoid(module_.forward({batch}).toTensor());

    auto scores_cpu = scores.to(torch::kCPU).contiguous();
    const float* host = scores_cpu.data_ptr<float>();  // bound CPU copy: fine
    const int64_t k = scores.size(1);
    std::vector<Response> out(requests.size());
    for (size_t i = 0; i < out.size(); ++i) out[i].scores.assign(host + i * k, host + (i + 1) * k);
    return out;
  }

  // Input validation: the largest L2 norm among the request rows.
  float max_input_norm(const std::vector<Request>& requests) {
    torch::InferenceMode guard;
    std::vector<torch::Tensor> rows;
    for (const auto& r : requests) rows.push_back(torch::tensor(r.features).to(device_));
    auto norms = torch::stack(rows).norm(2, {1});
    const float* p = norms.data_ptr<float>();  // BUG(device-host-access): norms is on device_; the host dereferences device memory
    float best = 0.f;
    for (int64_t i = 0; i < norms.numel(); ++i) best = std::max(best, p[i]);
    return best;
  }

  float mean_score(const std::vector<Request>& requests) {
    torch::InferenceMode guard;
    auto x = torch::zeros({static_cast<int64_t>(requests.size()), 64});
    for (size_t i = 0; i < requests.size(); ++i) {
      std::memcpy(x[i].data_ptr<float>(), requests[i].features.data(), 64 * sizeof(float));  // CPU tensor: fine
    }
    auto scores = torch::sigmoid(module_.forward({x.to(device_)}).toTensor());
    return scores.mean().item<float>();
  }

 private:
  torch::Device device_;
  torch::jit::Module module_;
  std::mutex mu_;
};

int main(int argc, char** argv) {
  if (argc < 2) return 1;
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  Predictor predictor(argv[1], device);
  std::vector<Request> reqs(4, Request{std::vector<float>(64, 0.5f)});
  auto out = predictor.predict(reqs);
  return static_cast<int>(out.size() + predictor.max_input_norm(reqs) + predictor.mean_score(reqs));
}
