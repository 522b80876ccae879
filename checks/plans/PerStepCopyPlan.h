//===--- PerStepCopyPlan.h - The cost of a copy made every step -*- C++ -*-===//

#ifndef TORCH_TIDY_CHECKS_PLANS_PERSTEPCOPYPLAN_H
#define TORCH_TIDY_CHECKS_PLANS_PERSTEPCOPYPLAN_H

#include "ReplayedOperation.h"
#include "llvm/ADT/StringRef.h"
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

namespace clang::tidy::torch_tidy::plans {

/// A tensor of \p Sizes (1024 elements when the source spells none) where
/// \p Move copies from, copied by \p Move a hundred times: the plan times
/// the copy a loop makes on every step.
nlohmann::json perStepCopyPlan(llvm::StringRef Check, const ReplayedMove &Move,
                               std::optional<std::vector<int64_t>> Sizes);

} // namespace clang::tidy::torch_tidy::plans

#endif // TORCH_TIDY_CHECKS_PLANS_PERSTEPCOPYPLAN_H
