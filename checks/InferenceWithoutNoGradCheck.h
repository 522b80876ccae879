//===--- InferenceWithoutNoGradCheck.h - training-inference-without-no-grad ===//

#ifndef TORCH_TIDY_CHECKS_INFERENCEWITHOUTNOGRADCHECK_H
#define TORCH_TIDY_CHECKS_INFERENCEWITHOUTNOGRADCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "utils/LoopIterations.h"
#include <memory>
#include <vector>

namespace clang::tidy::torch_tidy {

/// Finds a module's forward run in a loop of evaluation code with autograd
/// on: the module was put in eval() (before the loop, by the caller, or by
/// the constructor of the class that holds it), no torch::NoGradGuard or
/// c10::InferenceMode is in scope (the callers' scopes included), nothing in
/// the iteration or after the loop calls backward(), and the module's
/// parameters are not frozen.
class InferenceWithoutNoGradCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  const ValueDecl *canonical(const ValueDecl *Object) const;
  /// The eval() that leaves \p Module (as the loop's function names it) in
  /// evaluation mode on the loop's iterations, if the translation unit shows
  /// one; null when it does not or when backward(), a guard or train() says
  /// this is not inference.
  const Expr *inferenceEvidence(const CallExpr &Forward,
                                const utils::LoopContext &Loop,
                                const ValueDecl *Module);
  void report(const CallExpr &Forward, const utils::LoopContext &Loop,
              const ValueDecl *Module, const Expr &Eval);

  ASTContext *Ctx = nullptr;
  std::vector<const CallExpr *> Forwards;
  std::vector<const CXXMemberCallExpr *> Freezes;
  std::unique_ptr<utils::CallSites> Calls;
  /// Modules whose parameters() are all set not to require grad.
  llvm::SmallPtrSet<const ValueDecl *, 4> Frozen;
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_INFERENCEWITHOUTNOGRADCHECK_H
