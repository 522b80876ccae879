// dqn_replay: the Q-network and its checkpoint helpers.
#pragma once
#include <torch/torch.h>

#include <string>

namespace rb {

class QNetImpl : public torch::nn::Module {
 public:
  QNetImpl(int64_t obs_dim, int64_t actions);
  torch::Tensor forward(const torch::Tensor& obs);  // (N, actions)

 private:
  torch::nn::Linear fc1_{nullptr}, fc2_{nullptr};
};
TORCH_MODULE(QNet);

void hard_update(QNet& target, QNet& online);
// Checkpoints open on the CPU, so that they load on machines without a GPU.
void load_policy(QNet& q, const std::string& path);

}  // namespace rb
