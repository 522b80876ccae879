//===--- LocalVariables.h - Syntactic facts of a function's locals --------===//
//
// What the dataflow asks of a function's locals without interpreting it:
// the range a range-for loop variable walks, and whether a local is changed
// after its initialisation (clang's ExprMutationAnalyzer), so that a local
// device or options variable can be read through its initialiser.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_FLOW_LOCALVARIABLES_H
#define TORCH_TIDY_CHECKS_FLOW_LOCALVARIABLES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "llvm/ADT/DenseMap.h"
#include <memory>

namespace clang::tidy::torch_tidy::flow {

class LocalVariables {
public:
  LocalVariables(const Stmt &Body, ASTContext &Ctx);
  ~LocalVariables();

  /// The range a range-for loop variable walks, if \p Var is one.
  const Expr *loopRange(const VarDecl *Var) const {
    return LoopRanges.lookup(Var);
  }
  /// What a reference names, when \p D is one: the range a `for (auto &t :
  /// v)` walks (one of its elements), or a reference local's initialiser;
  /// through a structured binding too. A write through it changes that.
  const Expr *aliasedBy(const ValueDecl *D) const;

  /// A local (not a parameter) whose value is its initialiser wherever it is
  /// read: never assigned, passed by non-const reference or address later.
  bool isFixed(const VarDecl *Var) const;

private:
  const Stmt &Body;
  ASTContext &Ctx;
  llvm::DenseMap<const VarDecl *, const Expr *> LoopRanges;
  mutable std::unique_ptr<ExprMutationAnalyzer> Mutations;
};

} // namespace clang::tidy::torch_tidy::flow

#endif // TORCH_TIDY_CHECKS_FLOW_LOCALVARIABLES_H
