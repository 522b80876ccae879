// imgcls: the classifier's layers, its weight EMA and checkpoint loading.
#include "ic_model.h"

namespace ic {

ClassifierImpl::ClassifierImpl(int64_t num_classes) {
  conv1_ = register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 8, 3).padding(1)));
  conv2_ = register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(8, 16, 3).padding(1)));
  fc_ = register_module("fc", torch::nn::Linear(16, num_classes));
  mean_ = register_buffer("mean", torch::tensor({0.49, 0.48, 0.45}).view({1, 3, 1, 1}));
  std_ = torch::tensor({0.25, 0.24, 0.26}).view({1, 3, 1, 1});
}

torch::Tensor ClassifierImpl::forward(torch::Tensor x) {
  x = (x - mean_) / std_;
  x = torch::max_pool2d(torch::relu(conv1_(x)), 2);
  x = torch::relu(conv2_(x));
  x = torch::adaptive_avg_pool2d(x, {1, 1}).flatten(1);
  return fc_(x);
}

std::vector<torch::Tensor> snapshot_weights(Classifier& model) {
  std::vector<torch::Tensor> copies;
  for (const auto& p : model->parameters()) copies.push_back(p.detach().cpu().clone());
  return copies;
}

void update_ema(std::vector<torch::Tensor>& ema, Classifier& model, double decay) {
  torch::NoGradGuard no_grad;
  auto params = model->parameters();
  for (size_t i = 0; i < params.size(); ++i)
    ema[i].mul_(decay).add_(params[i].detach(), 1.0 - decay);  // BUG(device-mismatch): ema holds .cpu() copies (snapshot_weights), the parameters are on the device ic_train.cpp moved the model to
}

void load_checkpoint(Classifier& model, const std::string& path) {
  torch::load(model, path);  // BUG(device-load-without-device): ic_eval.cpp moves the model to the device before calling this; the load restores the device the checkpoint was saved from
}

}  // namespace ic
