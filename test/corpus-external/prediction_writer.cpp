// Batch inference over a feature file, writing a CSV of predicted class and confidence per row.
#include <torch/torch.h>

#include <fstream>
#include <iostream>
#include <string>
#include <vector>

struct MLPImpl : torch::nn::Module {
  MLPImpl(int64_t in, int64_t hidden, int64_t out)
      : l1(register_module("l1", torch::nn::Linear(in, hidden))),
        l2(register_module("l2", torch::nn::Linear(hidden, out))) {}
  torch::Tensor forward(const torch::Tensor& x) { return l2(torch::gelu(l1(x))); }
  torch::nn::Linear l1, l2;
};
TORCH_MODULE(MLP);

void write_rows(std::ofstream& csv, int64_t first_row, const torch::Tensor& labels, const float* conf, int64_t n) {
  auto lab = labels.to(torch::kCPU);
  auto la = lab.accessor<int64_t, 1>();
  for (int64_t i = 0; i < n; ++i) csv << first_row + i << "," << la[i] << "," << conf[i] << "\n";
}

int main(int argc, char** argv) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  MLP model(64, 256, 12);
  torch::load(model, argc > 1 ? argv[1] : "mlp.pt", device);
  model->to(device);
  model->eval();

  std::ofstream csv("predictions.csv");
  csv << "row,label,confidence\n";
  const int64_t rows = 100000, bs = 4096;
  int64_t low_confidence = 0;
  torch::NoGradGuard no_grad;
  for (int64_t start = 0; start < rows; start += bs) {
    const int64_t n = std::min(bs, rows - start);
    auto x = torch::randn({n, 64}).to(device);
    auto probs = torch::softmax(model->forward(x), 1);
    auto best = probs.max(1);
    auto conf = std::get<0>(best);
    auto labels = std::get<1>(best);

    const float* c = conf.cpu().data_ptr<float>();  // BUG(device-host-access): pointer into a temporary CPU copy; it dangles when conf is on a GPU
    write_rows(csv, start, labels, c, n);

    auto ca = conf.accessor<float, 1>();  // BUG(device-host-access): accessor of a device tensor
    for (int64_t i = 0; i < n; ++i) low_confidence += ca[i] < 0.5f;

    auto entropy = -(probs * probs.clamp_min(1e-12).log()).sum(1);
    auto entropy_cpu = entropy.cpu();
    const float* e = entropy_cpu.data_ptr<float>();
    float worst = 0.f;
    for (int64_t i = 0; i < n; ++i) worst = std::max(worst, e[i]);
    if (start == 0) std::cout << "first batch max entropy " << worst << "\n";
  }
  std::cout << low_confidence << " rows below 0.5\n";
}
