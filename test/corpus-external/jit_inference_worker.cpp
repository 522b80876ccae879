// Inference worker for an image classifier exported with TorchScript: decode, batch, top-k.
#include <torch/script.h>
#include <torch/torch.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

struct Request {
  std::vector<uint8_t> rgb;  // H*W*3, interleaved
  int64_t height, width;
};

struct Prediction {
  std::vector<std::pair<int64_t, float>> topk;
};

class ClassifierWorker {
 public:
  ClassifierWorker(const std::string& model_path, torch::Device device) : device_(device) {
    module_ = torch::jit::load(model_path);  // BUG(device-load-without-device): a model exported from a GPU box fails to load on a CPU-only worker
    module_.to(device_);
    module_.eval();
  }

  Prediction run(const Request& req, int k) {
    torch::InferenceMode guard;
    std::vector<float> pixels(req.rgb.size());
    static const float mean[3] = {0.485f, 0.456f, 0.406f}, stdv[3] = {0.229f, 0.224f, 0.225f};
    for (size_t i = 0; i < req.rgb.size(); ++i) pixels[i] = (req.rgb[i] / 255.f - mean[i % 3]) / stdv[i % 3];
    auto opts = torch::TensorOptions().dtype(torch::kFloat).device(device_);
    auto image = torch::from_blob(pixels.data(), {1, req.height, req.width, 3}, opts);  // BUG(device-from-blob): host vector wrapped as a tensor on device_
    image = image.permute({0, 3, 1, 2}).contiguous();
    auto logits = module_.forward({image}).toTensor();
    auto probs = torch::softmax(logits, 1);
    auto best = probs.topk(k, 1);
    auto scores = std::get<0>(best)[0];
    auto ids = std::get<1>(best)[0].cpu();
    const float* s = scores.data_ptr<float>();  // BUG(device-host-access): scores is on device_; read on the host below
    const int64_t* id = ids.data_ptr<int64_t>();
    Prediction p;
    for (int i = 0; i < k; ++i) p.topk.emplace_back(id[i], s[i]);
    return p;
  }

 private:
  torch::Device device_;
  torch::jit::script::Module module_;
};

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: worker model.pt\n";
    return 1;
  }
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  ClassifierWorker worker(argv[1], device);
  Request req{std::vector<uint8_t>(224 * 224 * 3, 128), 224, 224};
  auto pred = worker.run(req, 5);
  for (const auto& kv : pred.topk) std::cout << kv.first << ": " << kv.second << "\n";
}
