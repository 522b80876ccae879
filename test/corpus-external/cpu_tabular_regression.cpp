// Gradient-boosting replacement on a laptop: a CPU-only MLP regressor over a CSV of housing data.
#include <torch/torch.h>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

struct Table {
  torch::Tensor x, y;
};

Table read_csv(const std::string& path, int64_t cols) {
  std::ifstream in(path);
  std::string line;
  std::vector<float> values;
  int64_t rows = 0;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) values.push_back(std::stof(cell));
    ++rows;
  }
  if (rows == 0) {
    rows = 512;
    values.resize(rows * cols);
    for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>((i * 37) % 101) / 101.f;
  }
  auto all = torch::from_blob(values.data(), {rows, cols}).clone();
  return {all.slice(1, 0, cols - 1), all.select(1, cols - 1)};
}

struct Standardizer {
  torch::Tensor mean, std;
  explicit Standardizer(const torch::Tensor& x) : mean(x.mean(0)), std(x.std(0).clamp_min(1e-6)) {}
  torch::Tensor operator()(const torch::Tensor& x) const { return (x - mean) / std; }
};

int main(int argc, char** argv) {
  auto table = read_csv(argc > 1 ? argv[1] : "housing.csv", 9);
  Standardizer scale(table.x);
  auto x = scale(table.x);
  auto y = torch::log1p(table.y.clamp_min(0));

  auto perm = torch::randperm(x.size(0));
  const int64_t n_train = x.size(0) * 8 / 10;
  auto train_idx = perm.slice(0, 0, n_train), test_idx = perm.slice(0, n_train);

  auto model = torch::nn::Sequential(torch::nn::Linear(8, 64), torch::nn::ReLU(), torch::nn::Linear(64, 64),
                                     torch::nn::ReLU(), torch::nn::Linear(64, 1));
  if (argc > 2) torch::load(model, argv[2], torch::kCPU);
  torch::optim::Adam opt(model->parameters(), torch::optim::AdamOptions(1e-3));
  auto epoch_losses = torch::zeros({200});
  for (int epoch = 0; epoch < 200; ++epoch) {
    auto shuffled = train_idx.index({torch::randperm(n_train)});
    auto total = torch::zeros({1});
    for (int64_t s = 0; s < n_train; s += 64) {
      auto idx = shuffled.slice(0, s, std::min(s + 64, n_train));
      auto pred = model->forward(x.index({idx})).squeeze(1);
      auto loss = torch::mse_loss(pred, y.index({idx}));
      opt.zero_grad();
      loss.backward();
      opt.step();
      total += loss.detach() * idx.size(0);
    }
    epoch_losses[epoch] = total[0] / n_train;
  }
  torch::NoGradGuard no_grad;
  auto test_pred = model->forward(x.index({test_idx})).squeeze(1);
  auto rmse = (test_pred - y.index({test_idx})).pow(2).mean().sqrt();
  auto curve = epoch_losses.accessor<float, 1>();
  const float* preds = test_pred.data_ptr<float>();
  std::cout << "final train loss " << curve[199] << " test rmse " << rmse.item<float>() << " first pred " << preds[0] << "\n";
  torch::save(model, "regressor.pt");
}
