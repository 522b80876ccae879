// Test-time augmentation for a trained classifier: average the softmax over the
// identity, horizontal and vertical flips. Writes per-image predictions and a run report.
#include <torch/torch.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

struct ClassifierImpl : torch::nn::Module {
  ClassifierImpl() {
    body = register_module("body", torch::nn::Sequential(
        torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 32, 3).stride(2).padding(1)), torch::nn::ReLU(),
        torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 64, 3).stride(2).padding(1)), torch::nn::ReLU(),
        torch::nn::AdaptiveAvgPool2d(1), torch::nn::Flatten(), torch::nn::Linear(64, 100)));
  }
  torch::Tensor forward(const torch::Tensor& x) { return body->forward(x); }
  torch::nn::Sequential body{nullptr};
};
TORCH_MODULE(Classifier);

struct RunInfo {
  std::string device;  // where the weights live, for the report
  int64_t images = 0;
};

static int64_t choose_batch_size(const RunInfo& info) {
  return info.device == "cuda" ? 512 : 16;  // BUG(device-string-compare): info.device is a parameter's device string, "cuda:0" on a GPU: GPU runs fall back to the CPU batch size
}

int main(int argc, char** argv) {
  const std::string weights = argc > 1 ? argv[1] : "classifier.pt";
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  Classifier model;
  torch::load(model, weights, device);
  model->to(device);
  model->eval();

  RunInfo info;
  info.device = model->parameters().front().device().str();
  const int64_t batch = choose_batch_size(info);

  auto images = torch::rand({5000, 3, 64, 64}, torch::TensorOptions().device(device));
  auto predict = [&](const torch::Tensor& x) {
    return torch::softmax(model->forward(x), 1);  // BUG(training-inference-without-no-grad): called in the batch loop below after model->eval(), and no guard is in scope anywhere: three autograd graphs per batch
  };

  std::vector<torch::Tensor> labels;
  for (int64_t i = 0; i < images.size(0); i += batch) {
    auto x = images.narrow(0, i, std::min(batch, images.size(0) - i));
    auto p = predict(x) + predict(x.flip({3})) + predict(x.flip({2}));
    labels.push_back(p.argmax(1));
    info.images += x.size(0);
  }
  auto all = torch::cat(labels).to(torch::kCPU);  // one copy after the loop

  std::ofstream out("tta_predictions.txt");
  auto acc = all.accessor<int64_t, 1>();
  for (int64_t i = 0; i < acc.size(0); ++i) out << i << ' ' << acc[i] << '\n';
  std::printf("%lld images on %s, batch %lld\n", static_cast<long long>(info.images), info.device.c_str(),
              static_cast<long long>(batch));
}
