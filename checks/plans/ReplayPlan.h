//===--- ReplayPlan.h - The replay plan a finding carries -----------------===//
//
// Each finding carries a small straight-line program over tensors that the
// probe (torch-tidy-probe) replays to confirm it; runtime/PLAN_FORMAT.md is
// the format. Checks build the steps and the observable and record the plan
// beside the diagnostic; the driver collects the plans of each file, names
// them after their finding and writes or replays them.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_PLANS_REPLAYPLAN_H
#define TORCH_TIDY_CHECKS_PLANS_REPLAYPLAN_H

#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringRef.h"
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace clang::tidy::torch_tidy::plans {

/// Builds the steps of a plan; each method returns the id of its result.
class PlanBuilder {
public:
  /// A tensor from `torch::<Fn>(Sizes)` on \p Device ("cpu" or "accel").
  std::string factory(llvm::StringRef Device, std::vector<int64_t> Sizes,
                      bool RequiresGrad = false, llvm::StringRef Dtype = "");
  /// `Self.<Fn>(Device)`; discarded when \p Keep is false.
  std::string move(const std::string &Self, llvm::StringRef Fn,
                   llvm::StringRef Device, bool Keep, unsigned Repeat = 1);
  std::string call(llvm::StringRef Fn, const std::vector<std::string> &Args);
  std::string linear(int64_t In, int64_t Out);
  void moduleTo(const std::string &Module, llvm::StringRef Device);
  std::string forward(const std::string &Module, const std::string &Input);
  std::string sgd(const std::vector<std::string> &Params);
  void dataPtr(const std::string &Self);
  std::string module(const nlohmann::json &Parameters,
                     const nlohmann::json &Unregistered);

  /// The index of the step added last.
  unsigned lastStep() const { return Steps.size() - 1; }
  void expect(nlohmann::json Observable) { Expect = std::move(Observable); }
  nlohmann::json finish(llvm::StringRef Check, llvm::StringRef Description) const;

private:
  std::string add(nlohmann::json Step, bool Named = true);
  nlohmann::json Steps = nlohmann::json::array();
  nlohmann::json Expect;
  unsigned Counter = 0;
};

/// The sizes a factory call spells as integer literals (`torch::zeros({8,
/// 10})`), `{}` for a 0-dim factory, or \p Fallback.
std::vector<int64_t> literalSizes(const Expr *Factory,
                                  std::vector<int64_t> Fallback);

/// The plan's name for the op a LibTorch function performs (`operator+=` →
/// `add_`), or `add` when the plan format has no closer op.
std::string planFunction(const Expr *Sink);

/// Records \p Plan for the diagnostic \p Check reports at \p Loc.
void recordPlan(llvm::StringRef Check, SourceLocation Loc,
                const SourceManager &SM, nlohmann::json Plan);

struct RecordedPlan {
  std::string File;
  unsigned Offset;
  std::string Check;
  nlohmann::json Plan;
};

/// The plans recorded on this thread since the last call (the driver calls it
/// after each file).
std::vector<RecordedPlan> takeRecordedPlans();

} // namespace clang::tidy::torch_tidy::plans

#endif // TORCH_TIDY_CHECKS_PLANS_REPLAYPLAN_H
