//===--- PlanCalls.cpp - The functions a plan's "call" step runs ----------===//

#include "runtime/PlanCalls.h"

namespace torch_tidy::plan {

const std::map<std::string, CallSignature> &callSignatures() {
  static const std::map<std::string, CallSignature> Signatures = {
      // Element-wise (TensorIterator) binary ops.
      {"add", "TS"},
      {"sub", "TS"},
      {"mul", "TS"},
      {"div", "TS"},
      {"true_divide", "TS"},
      {"fmod", "TS"},
      {"remainder", "TS"},
      {"pow", "TS"},
      {"eq", "TS"},
      {"ne", "TS"},
      {"lt", "TS"},
      {"le", "TS"},
      {"gt", "TS"},
      {"ge", "TS"},
      {"bitwise_and", "TS"},
      {"bitwise_or", "TS"},
      {"bitwise_xor", "TS"},
      {"minimum", "TT"},
      {"maximum", "TT"},
      {"atan2", "TT"},
      {"hypot", "TT"},
      {"logical_and", "TT"},
      {"logical_or", "TT"},
      {"where", "TTT"},
      // In place: the first argument is the output.
      {"add_", "TS"},
      {"sub_", "TS"},
      {"mul_", "TS"},
      {"div_", "TS"},
      {"pow_", "TS"},
      {"copy_", "TT"},
      {"clamp", "TSS"},
      {"lerp", "TTS"},
      // Unary ops and reductions.
      {"relu", "T"},
      {"sigmoid", "T"},
      {"tanh", "T"},
      {"neg", "T"},
      {"exp", "T"},
      {"abs", "T"},
      {"sum", "T"},
      {"mean", "T"},
      // Linear algebra, joining and indexing.
      {"mm", "TT"},
      {"matmul", "TT"},
      {"bmm", "TT"},
      {"mv", "TT"},
      {"dot", "TT"},
      {"cat", "*"},
      {"stack", "*"},
      {"hstack", "*"},
      {"vstack", "*"},
      {"index_select", "TT"},
      {"index", "TT"},
      // Losses: input, target.
      {"mse_loss", "TT"},
      {"l1_loss", "TT"},
      {"smooth_l1_loss", "TT"},
      {"huber_loss", "TT"},
      {"kl_div", "TT"},
      {"cross_entropy", "TT"},
      {"nll_loss", "TT"},
      {"binary_cross_entropy", "TT"},
      {"binary_cross_entropy_with_logits", "TT"}};
  return Signatures;
}

bool callTakesDim(const std::string &Fn) {
  return Fn == "cat" || Fn == "stack" || Fn == "index_select";
}

bool callTakesWeight(const std::string &Fn) {
  return Fn == "cross_entropy" || Fn == "nll_loss" ||
         Fn == "binary_cross_entropy" || callTakesPosWeight(Fn);
}

bool callTakesPosWeight(const std::string &Fn) {
  return Fn == "binary_cross_entropy_with_logits";
}

} // namespace torch_tidy::plan
