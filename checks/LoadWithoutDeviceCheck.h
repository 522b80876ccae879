//===--- LoadWithoutDeviceCheck.h - device-load-without-device ------------===//

#ifndef TORCH_TIDY_CHECKS_LOADWITHOUTDEVICECHECK_H
#define TORCH_TIDY_CHECKS_LOADWITHOUTDEVICECHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::torch_tidy {

/// Finds `torch::load(value, path)`, `torch::jit::load(path)` and
/// `InputArchive::load_from(path)` without a device: LibTorch then restores
/// every tensor to the device it was saved from.
class LoadWithoutDeviceCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_LOADWITHOUTDEVICECHECK_H
