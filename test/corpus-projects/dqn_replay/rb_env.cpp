// dqn_replay: one-hot position observations, an episode ends at the goal or after 20 steps.
#include "rb_env.h"

namespace rb {

std::vector<float> Corridor::observe() const {
  std::vector<float> obs(static_cast<size_t>(length_), 0.0f);
  obs[static_cast<size_t>(pos_)] = 1.0f;
  return obs;
}

std::vector<float> Corridor::reset() {
  pos_ = 0;
  t_ = 0;
  return observe();
}

Step Corridor::step(int64_t action) {
  pos_ = action == 1 ? std::min(pos_ + 1, length_ - 1) : std::max<int64_t>(pos_ - 1, 0);
  ++t_;
  const bool goal = pos_ == length_ - 1;
  return {observe(), goal ? 1.0f : -0.01f, goal || t_ >= 20};
}

}  // namespace rb
