//===--- ExtensionOutputDeviceCheck.h - extension-output-device ---===//

#ifndef TORCH_TIDY_CHECKS_EXTENSIONOUTPUTDEVICECHECK_H
#define TORCH_TIDY_CHECKS_EXTENSIONOUTPUTDEVICECHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::torch_tidy {

/// Finds an op's output, written by a kernel or returned, allocated on the
/// CPU or on the current CUDA device instead of the inputs' device.
class ExtensionOutputDeviceCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_EXTENSIONOUTPUTDEVICECHECK_H
