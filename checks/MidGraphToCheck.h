//===--- MidGraphToCheck.h - device-mid-graph-to --------------------------===//

#ifndef TORCH_TIDY_CHECKS_MIDGRAPHTOCHECK_H
#define TORCH_TIDY_CHECKS_MIDGRAPHTOCHECK_H

#include "flow/FlowCheck.h"

namespace clang::tidy::torch_tidy {

/// Finds `.to()`/`.cuda()` on a leaf that requires grad: on an accelerator
/// its copy is not a leaf and never gets a gradient.
class MidGraphToCheck : public flow::FlowCheck {
public:
  using FlowCheck::FlowCheck;

private:
  void report(const flow::FunctionFacts &Facts, ASTContext &Ctx) override;
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_MIDGRAPHTOCHECK_H
