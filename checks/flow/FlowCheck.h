//===--- FlowCheck.h - Base of the checks that read the device dataflow ---===//

#ifndef TORCH_TIDY_CHECKS_FLOW_FLOWCHECK_H
#define TORCH_TIDY_CHECKS_FLOW_FLOWCHECK_H

#include "CrossFileRecorder.h"
#include "DeviceNames.h"
#include "Facts.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace clang::tidy::torch_tidy::flow {

/// Runs the device dataflow on every function of the user's code (once per
/// function and context, whichever checks ask) and hands each analysis to
/// report(): a function on its own, the forward() of a module class moved
/// somewhere in the file, and every function analysed in the context of a
/// call. Quiet in a translation unit that never names an accelerator.
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

  /// The expressions of \p Facts' function that \p Matcher binds to "node",
  /// in source order.
  template <typename MatcherT>
  static std::vector<const Expr *> nodesIn(const FunctionFacts &Facts,
                                           MatcherT Matcher, ASTContext &Ctx);

protected:
  virtual void report(const FunctionFacts &Facts, ASTContext &Ctx) = 0;

  /// The warning of a finding: diag(), and while report() reads an analysis
  /// that holds only if another translation unit supplies a fact, the
  /// record that the finding depends on it.
  DiagnosticBuilder finding(SourceLocation Loc, StringRef Message);

  /// The meetings of \p Facts that \p Owns, each reported once per
  /// translation unit (by the root cause \p KeyOf names).
  std::vector<const Meeting *>
  meetingsOwned(const FunctionFacts &Facts,
                llvm::function_ref<bool(const Meeting &)> Owns,
                llvm::function_ref<const Expr *(const Meeting &)> KeyOf);

  /// `'x'` for an expression, or \p Fallback when it comes from a macro.
  static std::string quoted(const Expr *E, const ASTContext &Ctx,
                            llvm::StringRef Fallback = "a tensor");

  /// The name of the operation where devices meet: `'operator+='`,
  /// `'mse_loss'`, `the loss 'CrossEntropyLoss'` for a loss module.
  static std::string operationName(const Expr *Sink);

  /// A note at where an accelerator operand got its device.
  void noteAcceleratorOrigin(const TensorValue &Value, const ASTContext &Ctx);

  /// Notes at the calls whose arguments decided a finding in a function
  /// analysed in their context (innermost first), or at the move of the
  /// module class whose forward() it is.
  void noteCallChain(const FunctionFacts &Facts, const ASTContext &Ctx);

  /// `.to(d)` after \p Operand, when \p Device is a plain name that can be
  /// named there.
  static std::optional<FixItHint> moveTo(const Expr &Operand,
                                         const Expr *Device, ASTContext &Ctx);

  /// Records the replay plan of \p M, reported at \p At.
  void recordMeetingPlan(const Meeting &M, SourceLocation At,
                         const ASTContext &Ctx);

  llvm::DenseSet<const Expr *> Reported;

private:
  /// Reports the analyses in a context not reported yet.
  void reportContexts(ASTContext &Ctx);

  /// The translation unit whose functions were analysed, if any.
  ASTContext *Analysed = nullptr;
  size_t ContextsReported = 0;
  /// The functions analysed as methods of a moved module class.
  std::vector<const FunctionDecl *> MovedClassMethods;
  /// What the analysis being reported needs from another translation unit.
  std::optional<Need> Condition;
  /// Where the finding being reported notes its accelerator operand's
  /// origin: the call chain does not note it twice.
  const Expr *NotedOrigin = nullptr;
  /// What every finding of this translation unit needs from another one: a
  /// name of an accelerator when it has none.
  std::optional<Need> UnitCondition;
};

template <typename MatcherT>
std::vector<const Expr *> FlowCheck::nodesIn(const FunctionFacts &Facts,
                                             MatcherT Matcher,
                                             ASTContext &Ctx) {
  std::vector<const Expr *> Out;
  if (!Facts.Function || !Facts.Function->getBody())
    return Out;
  for (const auto &Bound :
       ast_matchers::match(ast_matchers::findAll(Matcher),
                           *Facts.Function->getBody(), Ctx))
    if (const auto *E = Bound.template getNodeAs<Expr>("node"))
      Out.push_back(E);
  return Out;
}

} // namespace clang::tidy::torch_tidy::flow

#endif // TORCH_TIDY_CHECKS_FLOW_FLOWCHECK_H
