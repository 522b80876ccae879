//===--- ExtensionMissingDeviceGuardCheck.h - extension-missing-device-guard ---===//

#ifndef TORCH_TIDY_CHECKS_EXTENSIONMISSINGDEVICEGUARDCHECK_H
#define TORCH_TIDY_CHECKS_EXTENSIONMISSINGDEVICEGUARDCHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::torch_tidy {

/// Finds kernel launches of an extension op that no device guard
/// (at::cuda::OptionalCUDAGuard, c10::cuda::CUDAGuard, ...) in the op or its
/// callers precedes: they run on the current device, not the inputs'.
class ExtensionMissingDeviceGuardCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_EXTENSIONMISSINGDEVICEGUARDCHECK_H
