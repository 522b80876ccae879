//===--- ExtensionDefaultStreamCheck.h - extension-default-stream ---===//

#ifndef TORCH_TIDY_CHECKS_EXTENSIONDEFAULTSTREAMCHECK_H
#define TORCH_TIDY_CHECKS_EXTENSIONDEFAULTSTREAMCHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::torch_tidy {

/// Finds kernel launches and CUDA memory calls of an extension on the
/// default stream instead of PyTorch's current stream.
class ExtensionDefaultStreamCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_EXTENSIONDEFAULTSTREAMCHECK_H
