//===--- PlanCalls.h - The functions a plan's "call" step runs --*- C++ -*-===//
//
// The whitelist of LibTorch functions a replay plan may call, with the kinds
// of their arguments (runtime/PLAN_FORMAT.md, "call functions"). Shared by
// the validator, the interpreter and the tests; no LibTorch needed.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_RUNTIME_PLANCALLS_H
#define TORCH_TIDY_RUNTIME_PLANCALLS_H

#include <map>
#include <string>

namespace torch_tidy::plan {

/// The kinds of a call function's arguments, one letter each: 'T' a tensor,
/// 'S' a tensor or a number (a C++ scalar); or "*" for 1 to 64 tensors.
using CallSignature = std::string;

/// Every call function, by name.
const std::map<std::string, CallSignature> &callSignatures();

/// Call functions that take a `dim` (cat, stack, index_select).
bool callTakesDim(const std::string &Fn);
/// Losses that take a class `weight` (cross_entropy, nll_loss, the binary
/// cross entropies).
bool callTakesWeight(const std::string &Fn);
/// binary_cross_entropy_with_logits, the one call with a `pos_weight`.
bool callTakesPosWeight(const std::string &Fn);

} // namespace torch_tidy::plan

#endif // TORCH_TIDY_RUNTIME_PLANCALLS_H
