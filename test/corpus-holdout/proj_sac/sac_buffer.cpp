#include "sac_buffer.h"

ReplayBuffer::ReplayBuffer(int64_t capacity, int64_t obs_dim, int64_t act_dim) : capacity_(capacity) {
  obs_ = torch::zeros({capacity, obs_dim});  // host storage, by design
  next_obs_ = torch::zeros({capacity, obs_dim});
  act_ = torch::zeros({capacity, act_dim});
  rew_ = torch::zeros({capacity});
  done_ = torch::zeros({capacity});
}

void ReplayBuffer::add(const torch::Tensor& obs, const torch::Tensor& act, const torch::Tensor& rew,
                       const torch::Tensor& next_obs, const torch::Tensor& done) {
  const int64_t n = obs.size(0);
  auto idx = (torch::arange(n, torch::kLong) + head_) % capacity_;
  obs_.index_copy_(0, idx, obs.to(torch::kCPU));
  act_.index_copy_(0, idx, act.to(torch::kCPU));
  rew_.index_copy_(0, idx, rew.to(torch::kCPU));
  next_obs_.index_copy_(0, idx, next_obs.to(torch::kCPU));
  done_.index_copy_(0, idx, done.to(torch::kCPU));
  head_ = (head_ + n) % capacity_;
  filled_ = std::min(filled_ + n, capacity_);
}

Batch ReplayBuffer::sample(int64_t n) const {
  auto idx = torch::randint(0, filled_, {n}, torch::kLong);
  return {obs_.index_select(0, idx), act_.index_select(0, idx), rew_.index_select(0, idx),
          next_obs_.index_select(0, idx), done_.index_select(0, idx)};
}

void ReplayBuffer::record_returns(const torch::Tensor& finished_returns) {
  auto r = finished_returns.contiguous();
  const float* p = r.data_ptr<float>();  // BUG(device-host-access): sac_train.cpp passes episode returns computed on the device
  history_.insert(history_.end(), p, p + r.numel());
}

Batch to_device(const Batch& b, torch::Device device) {
  Batch out = b;
  out.obs = b.obs.to(device);
  out.act = b.act.to(device);
  out.rew = b.rew.to(device);
  out.done = b.done.to(device);
  return out;  // next_obs is left where it was
}

void ObsNormalizer::update(const torch::Tensor& obs) {
  torch::NoGradGuard no_grad;
  if (!sum_.defined()) {
    sum_ = torch::zeros({obs.size(1)}, obs.options());
    sq_sum_ = torch::zeros_like(sum_);
  }
  sum_ += obs.sum(0);
  sq_sum_ += obs.pow(2).sum(0);
  count_ += obs.size(0);
}

torch::Tensor ObsNormalizer::mean() const { return (sum_ / static_cast<double>(count_)).to(torch::kCPU); }

torch::Tensor ObsNormalizer::stddev() const {
  auto m = sum_ / static_cast<double>(count_);
  return (sq_sum_ / static_cast<double>(count_) - m.pow(2)).clamp_min(1e-8).sqrt().to(torch::kCPU);
}
