//===--- PlanCollector.h - The plans of one analysed file -------*- C++ -*-===//

#ifndef TORCH_TIDY_TOOL_PLANCOLLECTOR_H
#define TORCH_TIDY_TOOL_PLANCOLLECTOR_H

#include "Finding.h"
#include "plans/PlanRecorder.h"
#include <vector>

namespace torch_tidy {

/// Collects the replay plans the checks record while one file is analysed:
/// it is the checks' recorder on the constructing thread for as long as it
/// lives.
class PlanCollector : public clang::tidy::torch_tidy::plans::PlanRecorder {
public:
  PlanCollector();
  ~PlanCollector() override;
  PlanCollector(const PlanCollector &) = delete;
  PlanCollector &operator=(const PlanCollector &) = delete;

  void record(clang::tidy::torch_tidy::plans::RecordedPlan Plan) override;

  /// Gives each of \p Findings the plan recorded for it, or marks it as not
  /// replayable when its check said so.
  void attachTo(std::vector<Finding> &Findings);

private:
  std::vector<clang::tidy::torch_tidy::plans::RecordedPlan> Plans;
  clang::tidy::torch_tidy::plans::PlanRecorder *Previous;
};

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_PLANCOLLECTOR_H
