//===--- Transfer.h - What a statement does to the dataflow state ---------===//
//
// Interprets the elements of a CFG block: declarations and assignments of
// tensors, containers and aggregates; `Module::to`; container insertions;
// `requires_grad_`; the effects of the translation unit's own functions on
// their reference arguments and on the fields of `this`. While recording, it
// also records what the rules read: the operations where devices meet, CPU
// inputs of moved modules' forward(), and the value of every expression.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_FLOW_TRANSFER_H
#define TORCH_TIDY_CHECKS_FLOW_TRANSFER_H

#include "Evaluator.h"
#include "Facts.h"
#include "clang/Analysis/CFG.h"
#include <set>

namespace clang::tidy::torch_tidy::flow {

class LocalVariables;

/// The translation unit's functions as seen from a call: analysed in the
/// context of the call, their effects applied to the caller's state.
class CalleeEffects : public CallResolver {
public:
  /// The facts of the user function \p Call runs, analysed in the context
  /// of what \p Eval sees at the call; null when it is not followed.
  virtual const FunctionFacts *analyzeCallee(const CallExpr &Call,
                                             Evaluator &Eval) = 0;
  /// `model->forward(x)` on a module moved to an accelerator: analyses its
  /// forward() with its registered members there.
  virtual void enterForward(const CallExpr &Call, const ValueDecl &Module,
                            Evaluator &Eval) = 0;
  /// For a call of a function another translation unit defines: what the
  /// field \p Field of the aggregate it returns is assumed to hold (a
  /// hypothesis on that unit's return); unknown when nothing is assumed.
  virtual TensorValue assumedField(const CallExpr &Call,
                                   const FieldDecl &Field) = 0;
};

class Transfer {
public:
  Transfer(ASTContext &Ctx, const LocalVariables &Locals, CalleeEffects &Calls)
      : Ctx(Ctx), Locals(Locals), Calls(Calls) {}

  /// Records events and values into \p Out from now on (null: stop).
  void recordInto(FunctionFacts *Out) { Recording = Out; }

  /// Interprets \p Block, turning its entry state \p S into its exit state.
  void block(const CFGBlock &Block, State &S);

  /// The places the function writes (assigns, moves, fills), in any pass:
  /// what its callers see change.
  const std::set<Location> &writtenTensors() const { return WrittenTensors; }
  const std::set<const ValueDecl *> &writtenModules() const {
    return WrittenModules;
  }

private:
  void statement(const Stmt &S, State &Current, Evaluator &Eval);
  void initializer(const CXXCtorInitializer &Init, State &Current,
                   Evaluator &Eval);
  void declare(const VarDecl &Var, State &Current, Evaluator &Eval);
  /// A DataLoader's batch, `for (auto &batch : *loader)`: its fields hold
  /// what the DataLoader yields (on the CPU) until the program stores
  /// another value there.
  void declareBatch(const VarDecl &Var, State &Current);
  void recordReturn(const Expr &Value, const State &Current, Evaluator &Eval);
  void fieldsFromCall(const VarDecl &Var, const Expr *Init, State &Current,
                      Evaluator &Eval);
  void assign(const Expr *Target, const Expr *Value, State &Current,
              Evaluator &Eval);
  /// The container an element expression is part of: `v` for `v[i]`,
  /// `v.at(i)`, `m[k].second`.
  Location containerOf(const Expr *Element, Evaluator &Eval);
  /// A write of \p Value through the reference \p Reference is a write of one
  /// element of what it names.
  void writeThroughAlias(const ValueDecl *Reference, const TensorValue &Value,
                         State &Current, Evaluator &Eval);
  bool updateContainer(const CXXMemberCallExpr &Call, State &Current,
                       Evaluator &Eval);
  bool markRequiresGrad(const CXXMemberCallExpr &Call, State &Current,
                        Evaluator &Eval);
  void moveModule(const CXXMemberCallExpr &Call, State &Current,
                  Evaluator &Eval);
  /// `torch::load(x, path, device)` replaces what \p Load loads into.
  void loadCheckpoint(const CallExpr &Call, const api::CheckpointLoad &Load,
                      State &Current, Evaluator &Eval);
  void applyEffects(const CallExpr &Call, const FunctionFacts *Callee,
                    State &Current, Evaluator &Eval);
  void set(State &Current, const Location &Place, const TensorValue &Value);
  void applyParameterEffects(const FunctionFacts &Callee,
                             const ParmVarDecl *Param, const Location &Arg,
                             State &Current);
  void recordValues(const CallExpr &Call, Evaluator &Eval);
  void recordOperation(const CallExpr &Call, Evaluator &Eval);
  void recordStateMeeting(const CallExpr &Call, Evaluator &Eval);
  void recordMeeting(api::OpKind Kind, const CallExpr &Call,
                     std::vector<Operand> Operands);
  void recordForward(const CallExpr &Call, const ValueDecl &Module,
                     Evaluator &Eval);

  ASTContext &Ctx;
  const LocalVariables &Locals;
  CalleeEffects &Calls;
  FunctionFacts *Recording = nullptr;
  std::set<Location> WrittenTensors;
  std::set<const ValueDecl *> WrittenModules;
};


} // namespace clang::tidy::torch_tidy::flow

#endif // TORCH_TIDY_CHECKS_FLOW_TRANSFER_H
