// Deep-ensemble inference: K independently trained members, per-member temperatures, averaged probabilities.
#include <torch/torch.h>

#include <iostream>
#include <string>
#include <vector>

torch::nn::Sequential make_member() {
  return torch::nn::Sequential(torch::nn::Linear(32, 128), torch::nn::ReLU(), torch::nn::Dropout(0.1),
                               torch::nn::Linear(128, 6));
}

class Ensemble {
 public:
  Ensemble(const std::vector<std::string>& paths, const std::vector<float>& temperatures, torch::Device device)
      : device_(device) {
    for (const auto& p : paths) {
      auto m = make_member();
      torch::load(m, p, device_);
      members_.push_back(m);
    }
    for (float t : temperatures) temps_.push_back(torch::full({1}, t));
    // holders share their module: Module::to through a copy of the holder moves the member itself
    for (auto m : members_) {
      m->to(device_);
      m->eval();
    }
    for (auto t : temps_) {
      t = t.to(device_);  // BUG(device-loop-copy-to): t is a copy of the handle; temps_ keeps the CPU tensors
    }
  }

  // Mean of the members' calibrated probabilities and their disagreement (variance).
  std::pair<torch::Tensor, torch::Tensor> predict(const torch::Tensor& x) {
    torch::NoGradGuard no_grad;
    auto xd = x.to(device_);
    std::vector<torch::Tensor> probs;
    for (size_t k = 0; k < members_.size(); ++k) probs.push_back(torch::softmax(members_[k]->forward(xd) / temps_[k], 1));
    auto stacked = torch::stack(probs);
    return {stacked.mean(0), stacked.var(0).sum(1)};
  }

 private:
  torch::Device device_;
  std::vector<torch::nn::Sequential> members_;
  std::vector<torch::Tensor> temps_;
};

int main(int argc, char** argv) {
  torch::Device device = torch::cuda::is_available() ? torch::Device("GPU") : torch::Device(torch::kCPU);  // BUG(device-invalid-string): LibTorch has no "gpu" device type; the string must be "cuda"
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) paths.push_back(argv[i]);
  if (paths.empty()) paths = {"member0.pt", "member1.pt", "member2.pt"};
  Ensemble ensemble(paths, std::vector<float>(paths.size(), 1.5f), device);

  auto x = torch::randn({256, 32});
  auto result = ensemble.predict(x);
  auto mean = result.first.cpu();
  auto uncertainty = result.second.cpu();
  auto top = std::get<1>(mean.max(1));
  const float* u = uncertainty.data_ptr<float>();
  int64_t flagged = 0;
  for (int64_t i = 0; i < uncertainty.size(0); ++i) flagged += u[i] > 0.05f;
  std::cout << "class of first sample " << top[0].item<int64_t>() << ", " << flagged << " samples flagged\n";
}
