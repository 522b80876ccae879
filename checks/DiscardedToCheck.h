//===--- DiscardedToCheck.h - device-discarded-to -------------------------===//

#ifndef TORCH_TIDY_CHECKS_DISCARDEDTOCHECK_H
#define TORCH_TIDY_CHECKS_DISCARDEDTOCHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::torch_tidy {

/// Finds `x.to(dev);`, `x.cuda();` and other tensor conversions whose result is
/// thrown away: they never change `x`, which stays on its device.
class DiscardedToCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_DISCARDEDTOCHECK_H
