//===--- ConflictPlan.h - The replay plan of a device conflict --*- C++ -*-===//
//
// A conflict's plan creates its operands where the dataflow put them (the
// CPU one on the CPU, the others on the accelerator) and runs the operation
// where they meet, with the observable "device-mismatch" there.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_FLOW_CONFLICTPLAN_H
#define TORCH_TIDY_CHECKS_FLOW_CONFLICTPLAN_H

#include "Facts.h"
#include "llvm/ADT/StringRef.h"
#include <nlohmann/json.hpp>
#include <optional>

namespace clang::tidy::torch_tidy::flow {

/// The replay plan of \p M, reported by \p Check; none when the plan format
/// cannot run the operation where its tensors meet
/// (plans/ReplayedOperation.h).
std::optional<nlohmann::json> meetingPlan(const Meeting &M,
                                          llvm::StringRef Check,
                                          llvm::StringRef Description);

/// The plan of a CPU input fed to a moved module's forward(); none when the
/// module is not one the plan format can build.
std::optional<nlohmann::json> forwardInputPlan(const ForwardInput &F,
                                               llvm::StringRef Check,
                                               llvm::StringRef Description);

} // namespace clang::tidy::torch_tidy::flow

#endif // TORCH_TIDY_CHECKS_FLOW_CONFLICTPLAN_H
