//===--- LoopInvariantToCheck.h - device-loop-invariant-to ----------------===//

#ifndef TORCH_TIDY_CHECKS_LOOPINVARIANTTOCHECK_H
#define TORCH_TIDY_CHECKS_LOOPINVARIANTTOCHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::torch_tidy {

/// Finds `.to(device)`/`.cuda()` inside a loop on a tensor declared before it
/// that the loop never changes: the same copy between devices on every
/// iteration. A performance rule.
class LoopInvariantToCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus17;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;

private:
  llvm::DenseSet<const Expr *> Reported;
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_LOOPINVARIANTTOCHECK_H
