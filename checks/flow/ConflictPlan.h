//===--- ConflictPlan.h - The replay plan of a device conflict --*- C++ -*-===//
//
// A conflict's plan creates its operands where the dataflow put them (the
// CPU one on the CPU, the others on the accelerator) and runs the operation
// where they meet, with the observable "device-mismatch" there.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_FLOW_CONFLICTPLAN_H
#define TORCH_TIDY_CHECKS_FLOW_CONFLICTPLAN_H

#include "DeviceFlow.h"
#include "llvm/ADT/StringRef.h"
#include <nlohmann/json.hpp>
#include <optional>

namespace clang::tidy::torch_tidy::flow {

/// The replay plan of \p C, reported by \p Check; none when the plan format
/// cannot run the operation where its tensors meet
/// (plans/ReplayedOperation.h).
std::optional<nlohmann::json> conflictPlan(const Conflict &C,
                                           llvm::StringRef Check,
                                           llvm::StringRef Description);

} // namespace clang::tidy::torch_tidy::flow

#endif // TORCH_TIDY_CHECKS_FLOW_CONFLICTPLAN_H
