//===--- DeviceMismatchCheck.h - device-mismatch ------------------------------===//

#ifndef TORCH_TIDY_CHECKS_DEVICEMISMATCHCHECK_H
#define TORCH_TIDY_CHECKS_DEVICEMISMATCHCHECK_H

#include "flow/FlowCheck.h"

namespace clang::tidy::torch_tidy {

/// Finds any other operation where a CPU tensor that is not a 0-dim scalar meets a tensor that may be on an accelerator.
class DeviceMismatchCheck : public flow::FlowCheck {
public:
  using FlowCheck::FlowCheck;

private:
  void report(const flow::FunctionFacts &Facts, ASTContext &Ctx) override;
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_DEVICEMISMATCHCHECK_H
