//===--- UnmovedInputCheck.h - device-unmoved-input ------------------------------===//

#ifndef TORCH_TIDY_CHECKS_UNMOVEDINPUTCHECK_H
#define TORCH_TIDY_CHECKS_UNMOVEDINPUTCHECK_H

#include "flow/FlowCheck.h"

namespace clang::tidy::torch_tidy {

/// Finds a module moved to a device that may be an accelerator whose forward receives a tensor on the CPU.
class UnmovedInputCheck : public flow::FlowCheck {
public:
  using FlowCheck::FlowCheck;

private:
  void report(const flow::FunctionFacts &Facts, ASTContext &Ctx) override;
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_UNMOVEDINPUTCHECK_H
