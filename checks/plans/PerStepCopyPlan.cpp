//===--- PerStepCopyPlan.cpp - The cost of a copy made every step ---------===//

#include "PerStepCopyPlan.h"
#include "PlanBuilder.h"

namespace clang::tidy::torch_tidy::plans {

nlohmann::json perStepCopyPlan(llvm::StringRef Check, const ReplayedMove &Move,
                               std::optional<std::vector<int64_t>> Sizes) {
  PlanBuilder Plan;
  // The tensor starts where the move copies from.
  std::string Tensor =
      Plan.factory({Move.Target == "cpu" ? "accel" : "cpu",
                    Sizes.value_or(std::vector<int64_t>{1024})});
  Plan.move(Tensor, Move.Fn, Move.Target, /*Keep=*/true, /*Repeat=*/100);
  Plan.expect({{"kind", "timing"}, {"step", Plan.lastStep()}, {"min_micros", 1}});
  return Plan.finish(Check, "the cost of one per-step copy");
}

} // namespace clang::tidy::torch_tidy::plans
