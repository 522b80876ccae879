#include "kws_model.h"

#include <cmath>

KwsNetImpl::KwsNetImpl(int64_t n_mels, int64_t hidden_size, int64_t classes) : hidden(hidden_size) {
  conv1 = register_module("conv1", torch::nn::Conv1d(torch::nn::Conv1dOptions(n_mels, 64, 5).padding(2)));
  bn1 = register_module("bn1", torch::nn::BatchNorm1d(64));
  conv2 = register_module("conv2", torch::nn::Conv1d(torch::nn::Conv1dOptions(64, 64, 5).stride(2).padding(2)));
  bn2 = register_module("bn2", torch::nn::BatchNorm1d(64));
  gru = register_module("gru", torch::nn::GRU(torch::nn::GRUOptions(64, hidden_size).batch_first(true)));
  out = register_module("out", torch::nn::Linear(hidden_size, classes));
  // "silence" and "unknown" (the last two classes) are far more frequent than keywords.
  auto prior = torch::full({classes}, 1.0 / static_cast<double>(classes + 8));
  prior.narrow(0, classes - 2, 2).fill_(5.0 / static_cast<double>(classes + 8));
  class_prior = prior.log();
}

torch::Tensor KwsNetImpl::forward(const torch::Tensor& feats) {
  auto x = torch::relu(bn1->forward(conv1->forward(feats)));
  x = torch::relu(bn2->forward(conv2->forward(x)));
  auto h0 = torch::zeros({1, x.size(0), hidden});  // BUG(device-factory-without-device): a CPU initial state; kws_train.cpp moves the net, so the GRU sees device inputs with a host hidden state
  auto h = std::get<1>(gru->forward(x.transpose(1, 2), h0)).squeeze(0);
  return out->forward(h) + class_prior;
}
