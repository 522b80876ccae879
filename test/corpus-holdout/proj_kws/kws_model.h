#pragma once
// Keyword-spotting network: 1-D convolutions over log-mel frames, a GRU over time,
// and an output layer plus a fixed log-prior over the keyword classes.
#include <torch/torch.h>

struct KwsNetImpl : torch::nn::Module {
  KwsNetImpl(int64_t n_mels, int64_t hidden, int64_t classes);
  torch::Tensor forward(const torch::Tensor& feats);  // [B, n_mels, T] -> [B, classes]

  torch::nn::Conv1d conv1{nullptr}, conv2{nullptr};
  torch::nn::BatchNorm1d bn1{nullptr}, bn2{nullptr};
  torch::nn::GRU gru{nullptr};
  torch::nn::Linear out{nullptr};
  torch::Tensor class_prior;  // BUG(device-unregistered-member): kws_model.cpp assigns it but never registers it: kws_train.cpp's net->to(device) leaves it on the CPU, and forward() adds it to device logits
  int64_t hidden;
};
TORCH_MODULE(KwsNet);
