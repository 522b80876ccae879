//===--- UnmovedModuleCheck.h - device-unmoved-module ---------------------===//

#ifndef TORCH_TIDY_CHECKS_UNMOVEDMODULECHECK_H
#define TORCH_TIDY_CHECKS_UNMOVEDMODULECHECK_H

#include "flow/FlowCheck.h"

namespace clang::tidy::torch_tidy {

/// Finds a module built on the CPU and never moved whose forward receives a
/// tensor that may be on an accelerator.
class UnmovedModuleCheck : public flow::FlowCheck {
public:
  using FlowCheck::FlowCheck;

private:
  void report(const flow::FunctionFacts &Facts, ASTContext &Ctx) override;
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_UNMOVEDMODULECHECK_H
