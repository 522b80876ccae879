//===--- Evaluator.h - The device of an expression in a state -------------===//
//
// Evaluates tensor, device and TensorOptions expressions against the state
// of one program point: factories (with or without a device, `x.options()`,
// `*_like`), moves (`.to`, `.cuda`, `.cpu`), views and reductions, element
// access into containers and aggregates, forward() of moved modules, and the
// results of the translation unit's own functions (through CallResolver).
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_FLOW_EVALUATOR_H
#define TORCH_TIDY_CHECKS_FLOW_EVALUATOR_H

#include "Facts.h"
#include "State.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include <optional>

namespace clang::tidy::torch_tidy::flow {

class Evaluator;
class LocalVariables;

/// What a TensorOptions expression says about the device.
struct OptionsValue {
  /// Built somewhere the analysis cannot see.
  bool Opaque = false;
  bool HasDevice = false;
  DeviceValue Device;
  bool RequiresGrad = false;
  /// `x.options()`: the device of another tensor.
  std::optional<TensorValue> Like;
};

/// The results of calls the evaluator cannot compute alone: functions of
/// the translation unit, analysed in the context of the call.
class CallResolver {
public:
  virtual ~CallResolver() = default;
  /// What the user function \p Call runs returns, in the context of the
  /// call as \p Eval sees it; unknown when it is not followed.
  virtual TensorValue returnedBy(const CallExpr &Call, Evaluator &Eval) = 0;
};

class Evaluator {
public:
  Evaluator(ASTContext &Ctx, const State &Current, const LocalVariables &Locals,
            CallResolver *Calls = nullptr)
      : Ctx(Ctx), Current(Current), Locals(Locals), Calls(Calls) {}

  /// Records the value of every tensor expression evaluated into \p Out
  /// (the query API's deviceOf).
  void recordInto(llvm::DenseMap<const Expr *, TensorValue> *Out) {
    Recorded = Out;
  }

  const State &state() const { return Current; }

  TensorValue tensor(const Expr *E);
  DeviceValue device(const Expr *E);
  OptionsValue options(const Expr *E);
  /// The options of a factory call: its TensorOptions or Device argument.
  OptionsValue factoryOptions(const CallExpr &Call);
  /// The place an expression names: a variable, a field of `this`, a field
  /// of a local aggregate. Null Base when it names none.
  Location locationOf(const Expr *E) const;

  /// The module whose forward \p Call runs: `model->forward(x)`, `model(x)`.
  static const ValueDecl *forwardedModule(const CallExpr &Call);
  /// What is known of that module here: its own move, or for `owner->sub`
  /// the move of `owner` when owner's class registers `sub`.
  const ModuleValue *forwardedModuleValue(const CallExpr &Call) const;
  /// What a forward of \p Module returns once it was moved: its device.
  TensorValue moduleOutput(const ValueDecl *Module) const;
  /// The value of `.to()`/`.cuda()`/`.cpu()` applied to its object.
  TensorValue move(const CXXMemberCallExpr &Call);

  /// The tensor operands of \p Call: its object, its arguments, and the
  /// elements of a `{a, b}` list argument (cat, stack).
  std::vector<Operand> operands(const CallExpr &Call);
  /// The operand that makes an op of \p Kind throw: a CPU tensor beside an
  /// accelerator one, unless it is a 0-dim input that the op accepts.
  static std::optional<unsigned> conflictingOperand(api::OpKind Kind,
                                                    llvm::ArrayRef<Operand> Operands);

private:
  TensorValue evaluate(const Expr *E);
  TensorValue member(const MemberExpr &Member);
  TensorValue list(const Expr *E);
  TensorValue call(const CallExpr &Call);
  TensorValue methodCall(const CXXMemberCallExpr &Call);
  TensorValue factory(const CallExpr &Call);
  TensorValue factoryLike(const CallExpr &Call);
  TensorValue forwardOutput(const CallExpr &Call);
  /// Where `.to(...)` moves its object; none when it names no device (a
  /// dtype alone): the object stays where it is.
  std::optional<DeviceValue> moveTarget(const CXXMemberCallExpr &Call,
                                        const TensorValue &Object);
  void applyOption(const CallExpr &Call, OptionsValue &Result);
  static TensorValue combine(api::OpKind Kind,
                             const std::vector<Operand> &Operands);

  ASTContext &Ctx;
  const State &Current;
  const LocalVariables &Locals;
  CallResolver *Calls;
  llvm::DenseMap<const Expr *, TensorValue> *Recorded = nullptr;
};

} // namespace clang::tidy::torch_tidy::flow

#endif // TORCH_TIDY_CHECKS_FLOW_EVALUATOR_H
