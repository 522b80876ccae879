// dqn_replay: a ring buffer of transitions stored as preallocated tensors on one device.
#pragma once
#include <torch/torch.h>

#include <tuple>
#include <vector>

namespace rb {

// (obs, action, reward, next_obs, done)
using Transition = std::tuple<torch::Tensor, torch::Tensor, torch::Tensor, torch::Tensor, torch::Tensor>;

class ReplayBuffer {
 public:
  ReplayBuffer(int64_t capacity, int64_t obs_dim, torch::Device device);
  void push(const std::vector<float>& obs, int64_t action, float reward, const std::vector<float>& next_obs, bool done);
  Transition sample(int64_t batch) const;
  int64_t size() const { return size_; }

 private:
  int64_t capacity_, size_ = 0, pos_ = 0;
  torch::Tensor obs_, actions_, rewards_, next_obs_, dones_;
};

}  // namespace rb
