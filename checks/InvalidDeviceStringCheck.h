//===--- InvalidDeviceStringCheck.h - device-invalid-string ---------------===//

#ifndef TORCH_TIDY_CHECKS_INVALIDDEVICESTRINGCHECK_H
#define TORCH_TIDY_CHECKS_INVALIDDEVICESTRINGCHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::torch_tidy {

/// Finds device strings that LibTorch's parser rejects or misreads:
/// `torch::Device("CPU")`, `x.to("cuda0")`, `TensorOptions().device("cuda:")`.
class InvalidDeviceStringCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_INVALIDDEVICESTRINGCHECK_H
