//===--- MissingZeroGradCheck.h - training-missing-zero-grad --------------===//

#ifndef TORCH_TIDY_CHECKS_MISSINGZEROGRADCHECK_H
#define TORCH_TIDY_CHECKS_MISSINGZEROGRADCHECK_H

#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "utils/LoopIterations.h"
#include "utils/ValueOrigins.h"
#include <memory>

namespace clang::tidy::torch_tidy {

/// Finds an optimizer's `step()` in a loop whose iterations call backward()
/// but never clear that optimizer's gradients: no `zero_grad()` on it or on
/// the module whose parameters it holds, no `p.grad().zero_()`, anywhere in
/// the iteration (helpers of the translation unit included). The gradients
/// then accumulate over all steps.
class MissingZeroGradCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;

private:
  using Objects = llvm::SmallPtrSet<const ValueDecl *, 4>;
  /// The modules whose parameters() the optimizer \p Optimizer was built
  /// from; nothing when it holds anything else, or it cannot be told.
  std::optional<Objects> modulesOf(const ValueDecl &Optimizer, unsigned Depth);
  /// The modules whose parameters() \p Value, an optimizer's argument, names.
  std::optional<Objects> modulesIn(const Expr &Value, unsigned Depth);
  const ValueDecl *canonical(const ValueDecl *Object);
  /// Whether an iteration of \p Loop calls backward() and leaves the
  /// gradients of \p Optimizer (as the loop's function names it) uncleared.
  bool accumulates(const utils::LoopContext &Loop,
                   const ValueDecl *Optimizer, ASTContext &Ctx);
  void report(const CXXMemberCallExpr &Step, const utils::LoopContext &Loop,
              const ValueDecl *Optimizer, ASTContext &Ctx);

  std::unique_ptr<utils::CallSites> Calls;
  std::unique_ptr<utils::ValueOrigins> Origins;
  llvm::DenseSet<unsigned> Reported;
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_MISSINGZEROGRADCHECK_H
