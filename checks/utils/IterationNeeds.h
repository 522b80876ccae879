//===--- IterationNeeds.h - Whether an iteration needs a value --*- C++ -*-===//
//
// Where a value computed in an iteration of a loop goes, followed up
// clang's parent map: whether the host needs it before the iteration ends
// (it decides a branch or the loop's condition, sizes or indexes something,
// goes to code whose body is not in view, or is kept where the loop reads
// it again), or only prints it, accumulates it, or keeps it for after the
// loop. A use it does not understand counts as a need. What a library's
// calls do with their operands is the caller's to say. Knows nothing of
// LibTorch.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_UTILS_ITERATIONNEEDS_H
#define TORCH_TIDY_CHECKS_UTILS_ITERATIONNEEDS_H

#include "Execution.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <optional>
#include <vector>

namespace clang::tidy::torch_tidy::utils {

/// What a call of a library does with one of its operands.
enum class OperandUse {
  /// Not a call of that library.
  Unknown,
  /// Its result carries the operand's value on: a computation, a conversion.
  Carried,
  /// It needs the value now: a size, an index, a setting, a raw pointer.
  Needed,
};

class IterationNeeds {
public:
  using LibraryUse =
      llvm::function_ref<OperandUse(const CallExpr &, const Expr &Operand)>;

  IterationNeeds(const Stmt &Loop, ASTContext &Ctx, LibraryUse Library);

  /// Whether an iteration of the loop needs \p Value, evaluated in the
  /// function \p Chain leads to from the loop, before the iteration ends.
  bool needed(const Expr &Value, CallChain Chain);

private:
  using Calls = std::vector<const CallExpr *>;
  /// Whether what consumes \p Value needs it in the iteration.
  bool consumed(const Expr &Value, Calls Chain, unsigned Depth);
  /// The same for \p Operand of \p Call, an argument or a method's object;
  /// nothing when the call's result carries the value on.
  std::optional<bool> passed(const CallExpr &Call, const Expr &Operand,
                             Calls &Chain, unsigned Depth);
  /// Whether an iteration reads what was stored in \p Target (a variable, a
  /// field, an element of a container) in a way that needs it.
  bool stored(const Expr &Target, const Calls &Chain, unsigned Depth);
  bool readInIteration(const ValueDecl &Place, const Calls &Chain,
                       unsigned Depth);
  /// Whether \p Ref runs on some iterations only: every k-th.
  bool isPeriodic(const Expr &Ref, const Calls &Chain);

  const Stmt &Loop;
  ASTContext &Ctx;
  LibraryUse Library;
  const FunctionDecl *LoopFunction;
  llvm::DenseSet<const ValueDecl *> InProgress;
};

} // namespace clang::tidy::torch_tidy::utils

#endif // TORCH_TIDY_CHECKS_UTILS_ITERATIONNEEDS_H
