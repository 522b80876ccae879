// imgcls: a small CNN image classifier; the input normalisation lives in the model.
#pragma once
#include <torch/torch.h>

#include <string>
#include <vector>

namespace ic {

class ClassifierImpl : public torch::nn::Module {
 public:
  explicit ClassifierImpl(int64_t num_classes);
  torch::Tensor forward(torch::Tensor x);

 private:
  torch::nn::Conv2d conv1_{nullptr}, conv2_{nullptr};
  torch::nn::Linear fc_{nullptr};
  torch::Tensor mean_;
  torch::Tensor std_;  // BUG(device-unregistered-member): set in ic_model.cpp's constructor but never registered (mean_ is); model->to(device) in ic_train.cpp leaves it on the CPU and forward() divides a GPU batch by it
};
TORCH_MODULE(Classifier);

// Exponential moving average of the weights, kept in host memory.
std::vector<torch::Tensor> snapshot_weights(Classifier& model);
void update_ema(std::vector<torch::Tensor>& ema, Classifier& model, double decay);

void load_checkpoint(Classifier& model, const std::string& path);

}  // namespace ic
