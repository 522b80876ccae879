// A trainer that takes the model by reference and as a template parameter, modules in
// a ModuleList, state created from the inputs' options, buffers registered in the
// constructor. Everything a careful user does right. No known bug in this file.
#include <torch/torch.h>

#include <cstdio>

struct ResidualMlpImpl : torch::nn::Module {
  ResidualMlpImpl(int64_t dim, int64_t depth) {
    for (int64_t i = 0; i < depth; ++i) layers->push_back(torch::nn::Linear(dim, dim));
    register_module("layers", layers);
    scale = register_buffer("scale", torch::full({dim}, 0.5));
  }
  torch::Tensor forward(torch::Tensor x) {
    auto noise_gate = torch::ones({x.size(0), 1}, x.options());
    for (const auto& l : *layers) x = x + scale * torch::relu(l->as<torch::nn::Linear>()->forward(x)) * noise_gate;
    return x;
  }
  torch::nn::ModuleList layers;
  torch::Tensor scale;
};
TORCH_MODULE(ResidualMlp);

template <typename Model>
double fit_epoch(Model& model, const torch::Tensor& xs, const torch::Tensor& ys, torch::optim::Optimizer& opt,
                 torch::Device device) {
  model->train();
  auto total = torch::zeros({}, torch::TensorOptions().device(device));
  for (int64_t i = 0; i < xs.size(0); i += 256) {
    auto x = xs.narrow(0, i, 256).to(device);
    auto y = ys.narrow(0, i, 256).to(device);
    auto loss = torch::mse_loss(model->forward(x), y);
    opt.zero_grad();
    loss.backward();
    opt.step();
    total += loss.detach();
  }
  return total.item<double>() / static_cast<double>(xs.size(0) / 256);
}

static double validate(ResidualMlp& model, const torch::Tensor& xs, const torch::Tensor& ys) {
  torch::NoGradGuard no_grad;
  model->eval();
  const auto device = model->parameters().front().device();
  return torch::mse_loss(model->forward(xs.to(device)), ys.to(device)).item<double>();
}

int main() {
  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto xs = torch::randn({8192, 32});  // host data set
  auto ys = xs.tanh();
  auto vx = torch::randn({1024, 32});
  auto vy = vx.tanh();

  ResidualMlp model(32, 4);
  model->to(device);
  torch::optim::AdamW opt(model->parameters(), torch::optim::AdamWOptions(1e-3));
  for (int epoch = 0; epoch < 20; ++epoch) {
    const double train = fit_epoch(model, xs, ys, opt, device);
    std::printf("epoch %d train %.5f val %.5f\n", epoch, train, validate(model, vx, vy));
  }
  torch::save(model, "residual_mlp.pt");
}
