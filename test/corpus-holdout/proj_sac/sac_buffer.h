#pragma once
// Host-memory replay buffer with running observation statistics.
#include <torch/torch.h>

#include <vector>

struct Batch {
  torch::Tensor obs, act, rew, next_obs, done;
};

class ReplayBuffer {
 public:
  ReplayBuffer(int64_t capacity, int64_t obs_dim, int64_t act_dim);
  void add(const torch::Tensor& obs, const torch::Tensor& act, const torch::Tensor& rew, const torch::Tensor& next_obs,
           const torch::Tensor& done);
  Batch sample(int64_t n) const;  // host tensors
  void record_returns(const torch::Tensor& finished_returns);
  const std::vector<float>& return_history() const { return history_; }
  int64_t size() const { return filled_; }

 private:
  int64_t capacity_, head_ = 0, filled_ = 0;
  torch::Tensor obs_, act_, rew_, next_obs_, done_;
  std::vector<float> history_;
};

// Moves a sampled batch to the training device.
Batch to_device(const Batch& b, torch::Device device);

class ObsNormalizer {
 public:
  void update(const torch::Tensor& obs);
  torch::Tensor mean() const;  // host copies, so that they can be checkpointed anywhere
  torch::Tensor stddev() const;

 private:
  torch::Tensor sum_, sq_sum_;
  int64_t count_ = 0;
};
