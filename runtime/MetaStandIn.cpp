//===--- MetaStandIn.cpp - Where the meta device stands in for a GPU ------===//

#include "runtime/MetaStandIn.h"

#include <set>

namespace torch_tidy::runtime {

bool metaChecksDevicesOf(const std::string &Fn) {
  // Measured with LibTorch 1.13: each throws the same-device message for a
  // 1-dim CPU operand beside a meta one, as it does beside a CUDA one. Not
  // here: mm, matmul, bmm, mv, cat, stack, hstack, vstack, index,
  // cross_entropy and nll_loss run clean on meta; dot, index_select, where,
  // logical_and, logical_or, huber_loss and binary_cross_entropy have no
  // meta kernel.
  static const std::set<std::string> Faithful = {
      // Element-wise binary ops and their in-place forms.
      "add", "sub", "mul", "div", "true_divide", "fmod", "remainder", "pow",
      "eq", "ne", "lt", "le", "gt", "ge", "bitwise_and", "bitwise_or",
      "bitwise_xor", "minimum", "maximum", "atan2", "hypot", "add_", "sub_",
      "mul_", "div_", "pow_", "clamp", "lerp",
      // Pointwise losses.
      "mse_loss", "l1_loss", "smooth_l1_loss", "kl_div",
      "binary_cross_entropy_with_logits"};
  return Faithful.count(Fn) > 0;
}

} // namespace torch_tidy::runtime
