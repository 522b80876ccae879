// Exports the predictions of a keypoint regressor: every host read goes through a
// CPU copy bound to a variable, host buffers are wrapped as host memory and then
// copied, checkpoints are loaded with a device. No known bug in this file.
#include <torch/torch.h>

#include <cstdio>
#include <fstream>
#include <vector>

struct KeypointNetImpl : torch::nn::Module {
  KeypointNetImpl() {
    body = register_module("body", torch::nn::Sequential(
        torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 32, 3).stride(2).padding(1)), torch::nn::ReLU(),
        torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 64, 3).stride(2).padding(1)), torch::nn::ReLU(),
        torch::nn::AdaptiveAvgPool2d(1), torch::nn::Flatten(), torch::nn::Linear(64, 34)));
  }
  torch::Tensor forward(const torch::Tensor& x) { return body->forward(x).view({-1, 17, 2}); }
  torch::nn::Sequential body{nullptr};
};
TORCH_MODULE(KeypointNet);

static void write_csv(const torch::Tensor& keypoints_cpu, const char* path) {  // callers pass host tensors
  std::ofstream out(path);
  auto a = keypoints_cpu.accessor<float, 3>();
  for (int64_t i = 0; i < a.size(0); ++i) {
    for (int64_t k = 0; k < a.size(1); ++k) out << a[i][k][0] << ' ' << a[i][k][1] << (k + 1 < a.size(1) ? ' ' : '\n');
  }
}

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  KeypointNet net;
  torch::load(net, "keypoints.pt", device);
  net->to(device);
  net->eval();

  std::vector<float> pixels(16 * 3 * 128 * 128, 0.5f);  // decoded images, host memory
  auto images = torch::from_blob(pixels.data(), {16, 3, 128, 128}, torch::kFloat).to(device);

  torch::Tensor kp;
  {
    c10::InferenceMode guard;
    kp = net->forward(images);
  }
  auto kp_cpu = kp.to(torch::kCPU).contiguous();
  write_csv(kp_cpu, "keypoints.csv");

  const float* p = kp_cpu.data_ptr<float>();  // the copy outlives the pointer's use
  std::printf("first keypoint %.3f %.3f\n", p[0], p[1]);
  auto spread = kp.std(1).mean().item<float>();
  std::printf("mean spread %.4f\n", spread);

  std::vector<torch::Tensor> per_image;
  for (auto& t : kp.unbind(0)) per_image.push_back(t.cpu());
  torch::save(per_image, "keypoints_per_image.pt");
}
