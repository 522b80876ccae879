// dqn_replay: the storage is allocated once, on the device the learner runs on.
#include "rb_buffer.h"

#include <algorithm>

namespace rb {

ReplayBuffer::ReplayBuffer(int64_t capacity, int64_t obs_dim, torch::Device device) : capacity_(capacity) {
  auto opts = torch::TensorOptions().dtype(torch::kFloat).device(device);
  obs_ = torch::zeros({capacity, obs_dim}, opts);
  next_obs_ = torch::zeros({capacity, obs_dim}, opts);
  actions_ = torch::zeros({capacity}, opts.dtype(torch::kLong));
  rewards_ = torch::zeros({capacity});  // BUG(device-factory-without-device): the storage's device is left out here only; sample() returns it to Agent::learn (rb_agent.cpp), where it meets the target network's Q-values on the device
  dones_ = torch::zeros({capacity}, opts);
}

void ReplayBuffer::push(const std::vector<float>& obs, int64_t action, float reward, const std::vector<float>& next_obs, bool done) {
  obs_[pos_].copy_(torch::tensor(obs));
  next_obs_[pos_].copy_(torch::tensor(next_obs));
  actions_[pos_] = action;
  rewards_[pos_] = reward;
  dones_[pos_] = done ? 1.0f : 0.0f;
  pos_ = (pos_ + 1) % capacity_;
  size_ = std::min(size_ + 1, capacity_);
}

Transition ReplayBuffer::sample(int64_t batch) const {
  auto idx = torch::randint(size_, {batch}, torch::kLong);  // CPU indices into each storage
  return {obs_.index({idx}), actions_.index({idx}), rewards_.index({idx}), next_obs_.index({idx}), dones_.index({idx})};
}

}  // namespace rb
