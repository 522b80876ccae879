//===--- PlanCollector.cpp - The plans of one analysed file ---------------===//

#include "PlanCollector.h"
#include "llvm/Support/FileSystem.h"

namespace torch_tidy {

namespace plans = clang::tidy::torch_tidy::plans;

PlanCollector::PlanCollector() : Previous(plans::setPlanRecorder(this)) {}

PlanCollector::~PlanCollector() { plans::setPlanRecorder(Previous); }

void PlanCollector::record(plans::RecordedPlan Plan) {
  Plans.push_back(std::move(Plan));
}

void PlanCollector::attachTo(std::vector<Finding> &Findings) {
  for (plans::RecordedPlan &Recorded : Plans)
    for (Finding &F : Findings)
      if (F.Check == Recorded.Check && F.Where.Offset == Recorded.Offset &&
          llvm::sys::fs::equivalent(F.Where.File, Recorded.File)) {
        F.Plan = std::move(Recorded.Plan);
        F.OperationNotReplayable = !F.Plan;
        break;
      }
  Plans.clear();
}

} // namespace torch_tidy
