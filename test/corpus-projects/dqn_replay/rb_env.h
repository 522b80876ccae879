// dqn_replay: a one-dimensional corridor; reach the right end for a reward.
#pragma once
#include <cstdint>
#include <vector>

namespace rb {

struct Step {
  std::vector<float> obs;
  float reward;
  bool done;
};

class Corridor {
 public:
  explicit Corridor(int64_t length) : length_(length) {}
  std::vector<float> reset();
  Step step(int64_t action);  // 0: left, 1: right
  int64_t obs_dim() const { return length_; }

 private:
  std::vector<float> observe() const;
  int64_t length_, pos_ = 0, t_ = 0;
};

}  // namespace rb
