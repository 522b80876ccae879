//===--- LoopCopyToCheck.h - device-loop-copy-to --------------------------===//

#ifndef TORCH_TIDY_CHECKS_LOOPCOPYTOCHECK_H
#define TORCH_TIDY_CHECKS_LOOPCOPYTOCHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::torch_tidy {

/// Finds `for (auto t : tensors) { t = t.to(dev); }`: the moved tensor is
/// assigned to a copy, so the container keeps the tensors where they were.
class LoopCopyToCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus11;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_LOOPCOPYTOCHECK_H
