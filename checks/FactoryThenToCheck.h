//===--- FactoryThenToCheck.h - device-factory-then-to --------------------===//

#ifndef TORCH_TIDY_CHECKS_FACTORYTHENTOCHECK_H
#define TORCH_TIDY_CHECKS_FACTORYTHENTOCHECK_H

#include "flow/FlowCheck.h"

namespace clang::tidy::torch_tidy {

/// Finds `torch::ones({n}).to(device)`, `torch::randn(...).cuda()` on every
/// iteration of a loop or in a module's forward(): a host allocation and a
/// host-to-device copy each time, where the factory could allocate on the
/// device. A performance rule.
class FactoryThenToCheck : public flow::FlowCheck {
public:
  using FlowCheck::FlowCheck;

private:
  void report(const flow::FunctionFacts &Facts, ASTContext &Ctx) override;
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_FACTORYTHENTOCHECK_H
