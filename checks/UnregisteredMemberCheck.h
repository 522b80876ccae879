//===--- UnregisteredMemberCheck.h - device-unregistered-member -----------===//

#ifndef TORCH_TIDY_CHECKS_UNREGISTEREDMEMBERCHECK_H
#define TORCH_TIDY_CHECKS_UNREGISTEREDMEMBERCHECK_H

#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::torch_tidy {

/// Finds tensor members and submodule holders of a torch::nn::Module subclass
/// that are never registered, yet used in forward(): Module::to() does not
/// move them, and parameters() and serialization do not see them.
class UnregisteredMemberCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_UNREGISTEREDMEMBERCHECK_H
