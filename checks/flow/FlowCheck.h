//===--- FlowCheck.h - Base of the checks that read the device dataflow ---===//

#ifndef TORCH_TIDY_CHECKS_FLOW_FLOWCHECK_H
#define TORCH_TIDY_CHECKS_FLOW_FLOWCHECK_H

#include "DeviceFlow.h"
#include "clang-tidy/ClangTidyCheck.h"

namespace clang::tidy::torch_tidy::flow {

/// Runs the device dataflow on every function of the user's code (once per
/// function, whichever checks ask) and hands its facts to report(). Quiet in
/// a translation unit that never names an accelerator.
class FlowCheck : public ClangTidyCheck {
public:
  using ClangTidyCheck::ClangTidyCheck;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CPlusPlus17;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  /// Clears what the previous translation unit left: its facts and the
  /// findings reported (their nodes' addresses may be reused).
  void onStartOfTranslationUnit() override;
  /// Reports what the functions do in the context of their calls, once every
  /// function of the translation unit has been analysed.
  void onEndOfTranslationUnit() override;

protected:
  virtual void report(const FunctionFacts &Facts, ASTContext &Ctx) = 0;

  /// Conflicts of \p Cause, each reported once per translation unit.
  std::vector<const Conflict *> conflictsOf(const FunctionFacts &Facts,
                                            Conflict::Kind Cause);

  /// `'x'` for an expression, or \p Fallback when it comes from a macro.
  static std::string quoted(const Expr *E, const ASTContext &Ctx,
                            llvm::StringRef Fallback = "a tensor");

  /// The name of the operation where devices meet: `'operator+='`,
  /// `'mse_loss'`, `the loss 'CrossEntropyLoss'` for a loss module.
  static std::string operationName(const Expr *Sink);

  /// A note at where an accelerator operand got its device.
  void noteAcceleratorOrigin(const TensorValue &Value, const ASTContext &Ctx);

  /// Notes at the calls whose arguments decided a finding in a function
  /// analysed in their context: innermost first.
  void noteCallChain(const FunctionFacts &Facts, const ASTContext &Ctx);

  /// `.to(d)` after \p Operand, when \p Device is a plain name that can be
  /// named there.
  static std::optional<FixItHint> moveTo(const Expr &Operand,
                                         const Expr *Device, ASTContext &Ctx);

  /// Records the replay plan of \p C, reported at \p At.
  void recordConflictPlan(const Conflict &C, SourceLocation At,
                          const ASTContext &Ctx);

  llvm::DenseSet<const Expr *> Reported;

private:
  /// The translation unit whose functions were analysed, if any.
  ASTContext *Analysed = nullptr;
};

} // namespace clang::tidy::torch_tidy::flow

#endif // TORCH_TIDY_CHECKS_FLOW_FLOWCHECK_H
