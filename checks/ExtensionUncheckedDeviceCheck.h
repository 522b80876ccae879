//===--- ExtensionUncheckedDeviceCheck.h - extension-unchecked-device ---===//

#ifndef TORCH_TIDY_CHECKS_EXTENSIONUNCHECKEDDEVICECHECK_H
#define TORCH_TIDY_CHECKS_EXTENSIONUNCHECKEDDEVICECHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::torch_tidy {

/// Finds a tensor from Python whose memory (`x.data_ptr<T>()`) reaches a
/// kernel with no check on the way that it is on a CUDA device.
class ExtensionUncheckedDeviceCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_EXTENSIONUNCHECKEDDEVICECHECK_H
