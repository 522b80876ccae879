//===--- CallSites.h - Calls of the translation unit's own functions ------===//
//
// Top-down contexts: a function of the translation unit called with tensors
// of known device (or a module moved to an accelerator) is analysed in the
// context of that call, memoised per abstract context, so a helper called
// with a GPU tensor sees it there; its conflicts are reported with the call
// chain. Bottom-up summaries: what it returns, and what it leaves in its
// reference arguments and in the fields of `this`, flow back to the caller.
// Recursion, virtual calls and calls through pointers are not followed.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_FLOW_CALLSITES_H
#define TORCH_TIDY_CHECKS_FLOW_CALLSITES_H

#include "Transfer.h"

namespace clang::tidy::torch_tidy::flow {

class TranslationUnitAnalysis;

class CallSites : public CalleeEffects {
public:
  /// The calls made by a function analysed in \p Own context (none for a
  /// function on its own).
  CallSites(TranslationUnitAnalysis &TU, const std::optional<CallContext> &Own)
      : TU(TU), Own(Own) {}

  TensorValue returnedBy(const CallExpr &Call, Evaluator &Eval) override;
  const FunctionFacts *analyzeCallee(const CallExpr &Call,
                                     Evaluator &Eval) override;
  void enterForward(const CallExpr &Call, const ValueDecl &Module,
                    Evaluator &Eval) override;
  TensorValue assumedField(const CallExpr &Call, const FieldDecl &Field) override;

  /// How deep a chain of calls the analysis follows with contexts.
  static constexpr size_t MaxCallDepth = 8;

private:
  /// For a function defined in another translation unit: the arguments it
  /// is given on an accelerator, for that unit's findings.
  void supplyAcceleratorArguments(const CallExpr &Call,
                                  const FunctionDecl &Callee, Evaluator &Eval);
  /// The same for a module argument: moved to an accelerator, or built
  /// here and left on the CPU.
  void supplyModuleArgument(const CallExpr &Call, const FunctionDecl &Callee,
                            unsigned Param, const Expr &Arg, Evaluator &Eval);
  CallContext contextOf(const CallExpr &Call) const;
  State arguments(const CallExpr &Call, const FunctionDecl &Definition,
                  CallContext &Context, Evaluator &Eval);

  TranslationUnitAnalysis &TU;
  const std::optional<CallContext> &Own;
};

} // namespace clang::tidy::torch_tidy::flow

#endif // TORCH_TIDY_CHECKS_FLOW_CALLSITES_H
