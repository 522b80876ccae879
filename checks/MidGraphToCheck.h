//===--- MidGraphToCheck.h - device-mid-graph-to --------------------------===//

#ifndef TORCH_TIDY_CHECKS_MIDGRAPHTOCHECK_H
#define TORCH_TIDY_CHECKS_MIDGRAPHTOCHECK_H

#include "flow/FlowCheck.h"

namespace clang::tidy::torch_tidy {

/// Finds `.to()`/`.cuda()` where it hurts: (a) on a leaf that requires grad,
/// whose moved copy is not a leaf and never gets a gradient; (b) inside a loop
/// on a tensor that does not change there: a copy per iteration.
class MidGraphToCheck : public flow::FlowCheck {
public:
  using FlowCheck::FlowCheck;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  void report(const flow::FunctionFacts &Facts, ASTContext &Ctx) override;
  void checkPerStepCopy(const ast_matchers::MatchFinder::MatchResult &Result);
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_MIDGRAPHTOCHECK_H
