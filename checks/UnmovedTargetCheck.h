//===--- UnmovedTargetCheck.h - device-unmoved-target ------------------------------===//

#ifndef TORCH_TIDY_CHECKS_UNMOVEDTARGETCHECK_H
#define TORCH_TIDY_CHECKS_UNMOVEDTARGETCHECK_H

#include "flow/FlowCheck.h"

namespace clang::tidy::torch_tidy {

/// Finds a loss or metric where the model's output (on the device) meets a target taken from a torch::data batch and never moved; the input was.
class UnmovedTargetCheck : public flow::FlowCheck {
public:
  using FlowCheck::FlowCheck;
  /// A loss or metric meeting a CPU tensor that came from a batch.
  static bool owns(const flow::Meeting &M);

private:
  void report(const flow::FunctionFacts &Facts, ASTContext &Ctx) override;
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_UNMOVEDTARGETCHECK_H
