// imgcls: label-smoothed cross-entropy and a host-side accuracy.
#include "ic_metrics.h"

namespace ic {

torch::Tensor smoothed_cross_entropy(const torch::Tensor& logits, const torch::Tensor& target, double eps) {
  const auto n = logits.size(0), k = logits.size(1);
  auto soft = torch::full({n, k}, eps / (k - 1));  // BUG(device-factory-without-device): ic_train.cpp calls this with logits and target on the device; the smoothed targets are built on the CPU
  soft.scatter_(1, target.unsqueeze(1), 1.0 - eps);
  return -(soft * torch::log_softmax(logits, 1)).sum(1).mean();
}

double accuracy(const torch::Tensor& logits, const torch::Tensor& target) {
  auto pred = logits.argmax(1);
  auto p = pred.accessor<int64_t, 1>();  // BUG(device-host-access): ic_eval.cpp passes the logits of the model it moved to the device
  auto t = target.accessor<int64_t, 1>();
  int64_t correct = 0;
  for (int64_t i = 0; i < p.size(0); ++i) correct += p[i] == t[i];
  return static_cast<double>(correct) / static_cast<double>(p.size(0));
}

}  // namespace ic
