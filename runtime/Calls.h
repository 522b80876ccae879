//===--- Calls.h - Runs a plan's "call" steps with LibTorch -----*- C++ -*-===//
//
// Internal to runtime/: one LibTorch function per call function of
// runtime/PlanCalls.h, with the arguments the validator has checked.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_RUNTIME_CALLS_H
#define TORCH_TIDY_RUNTIME_CALLS_H

#include <ATen/ATen.h>
#include <nlohmann/json.hpp>

#include <functional>

namespace torch_tidy::runtime {

/// The tensor a plan's value name refers to.
using TensorLookup = std::function<at::Tensor(const nlohmann::json &Name)>;

/// A JSON number as a LibTorch scalar (integers stay integers).
at::Scalar scalarOf(const nlohmann::json &Number);

/// Runs the validated `call` step \p Step, resolving names with \p Tensor.
at::Tensor runCall(const nlohmann::json &Step, const TensorLookup &Tensor);

} // namespace torch_tidy::runtime

#endif // TORCH_TIDY_RUNTIME_CALLS_H
