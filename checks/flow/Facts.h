//===--- Facts.h - What one analysis of a function tells the rules --------===//
//
// The dataflow records two kinds of events, both independent of any rule:
// an operation where tensors that may be on different devices meet (a
// Meeting), a forward() of a module moved to an accelerator called with a
// CPU input (a ForwardInput), and its mirror, a forward() of a module built
// on the CPU and never moved called with an input that may be on an
// accelerator (a ForwardOnCpu). Which rule owns an event is for the rules to
// say (each rule's `owns`). Everything else a rule needs it asks of the
// query API: the device of an expression where it is evaluated, whether a
// statement is in a loop.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_FLOW_FACTS_H
#define TORCH_TIDY_CHECKS_FLOW_FACTS_H

#include "Lattice.h"
#include "State.h"
#include "api/TorchApi.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <map>
#include <optional>
#include <vector>

namespace clang::tidy::torch_tidy::flow {

/// A tensor operand of an operation and its value there.
struct Operand {
  const Expr *E = nullptr;
  TensorValue Value;
};

/// Tensors meet at an operation that needs them on one device: one operand
/// is on the CPU (and not exempt as a 0-dim input), another may be on an
/// accelerator.
struct Meeting {
  api::OpKind Op = api::OpKind::Other;
  /// The operation: a call, an operator, a loss module's call.
  const CallExpr *Sink = nullptr;
  /// Its tensor operands: its object first, list elements one by one.
  std::vector<Operand> Operands;
  unsigned CpuPosition = 0;
  unsigned AcceleratorPosition = 0;

  const Operand &cpu() const { return Operands[CpuPosition]; }
  const Operand &accelerator() const { return Operands[AcceleratorPosition]; }
};

/// `model->forward(x)` with `x` on the CPU, after `model` was moved to an
/// accelerator.
struct ForwardInput {
  const CallExpr *Call = nullptr;
  /// The variable or field holding the module.
  const ValueDecl *Module = nullptr;
  Operand Input;
  /// The device of the module's outputs (its registered members).
  TensorValue ModuleDevice;
  /// The `Module::to` call.
  const Expr *MovedAt = nullptr;
};

/// `model->forward(x.to(device))` where `model` was built here, without a
/// device, and no `Module::to` reached the call: its parameters are on the
/// CPU, its input may be on an accelerator.
struct ForwardOnCpu {
  const CallExpr *Call = nullptr;
  /// The variable or field holding the module.
  const ValueDecl *Module = nullptr;
  Operand Input;
};

/// What a call site passes to a function of this translation unit: the
/// arguments whose device is known. The callee is analysed in that context
/// (top-down), so that a helper called with a tensor on a GPU sees it there.
struct CallContext {
  /// The call sites from the outermost caller to this call.
  std::vector<const CallExpr *> Chain;
  /// The arguments with a known device, and their values at the call.
  std::vector<Operand> Arguments;
  /// A forward() of a module moved to an accelerator: the module (null for
  /// the context of a moved class, where no one call is meant), its class
  /// and the device its registered members are on.
  const ValueDecl *Module = nullptr;
  const CXXRecordDecl *ModuleClass = nullptr;
  TensorValue ModuleDevice;
};

struct FunctionFacts {
  const FunctionDecl *Function = nullptr;
  /// Set for the facts of a function analysed in the context of a call or
  /// of a moved class.
  std::optional<CallContext> Context;

  std::vector<Meeting> Meetings;
  std::vector<ForwardInput> ForwardInputs;
  std::vector<ForwardOnCpu> ForwardsOnCpu;

  /// The join of what the function returns, for its callers.
  TensorValue Returned;
  /// When it returns a local aggregate (`Batch b; ...; return b;`): what
  /// each of its fields holds, joined over the returns.
  std::map<const ValueDecl *, TensorValue> ReturnedFields;
  bool SeenReturn = false;
  /// What the function leaves in its by-reference parameters and in the
  /// fields of `this`, for its callers.
  State Exit;
  /// Places the function may change in ways the analysis does not follow
  /// (passed by non-const reference to code it cannot see): unknown after
  /// a call.
  std::vector<Location> Clobbered;

  /// The value of every tensor expression the analysis evaluated: at the
  /// fixpoint, or on a loop's first iteration where the fixpoint does not
  /// know (a real run takes that iteration).
  llvm::DenseMap<const Expr *, TensorValue> Values;
  /// The expressions of Values known on a loop's first iteration only.
  llvm::DenseSet<const Expr *> FirstIterationOnly;
  /// The statements of the CFG blocks that lie on a cycle.
  llvm::DenseSet<const Stmt *> InLoop;
  /// Whether anything of the function may be on an accelerator.
  bool UsesAccelerator = false;
  /// The solver stopped at its bound: the facts are empty.
  bool BoundHit = false;

  // ---- The query API ----

  /// What is known of \p E's tensor where it is evaluated; unknown for an
  /// expression the analysis did not evaluate.
  TensorValue deviceOf(const Expr &E) const;
  /// The same, unknown where only a loop's first iteration knows it: what
  /// holds each time \p E is evaluated.
  TensorValue deviceEveryTime(const Expr &E) const;
  /// Whether \p S runs in a loop of this function.
  bool inLoop(const Stmt &S) const { return InLoop.count(&S); }
};

} // namespace clang::tidy::torch_tidy::flow

#endif // TORCH_TIDY_CHECKS_FLOW_FACTS_H
