//===--- Execution.h - What running a statement executes --------*- C++ -*-===//
//
// The statements that run when a statement runs: its own, those of the
// lambdas it defines, and those of the functions of the main file that it
// calls, a few calls deep. With the chain of calls that leads to each, a
// parameter of a callee can be read as the caller's argument. Knows nothing
// of LibTorch.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_UTILS_EXECUTION_H
#define TORCH_TIDY_CHECKS_UTILS_EXECUTION_H

#include "CallSites.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace clang::tidy::torch_tidy::utils {

/// The calls from the statement visited first to the function a statement
/// is in, outermost first.
using CallChain = llvm::ArrayRef<const CallExpr *>;

/// Calls \p Visit on every statement that running \p Root executes, with the
/// calls that lead there, until \p Visit returns false; then returns false.
/// Functions are entered up to \p Depth calls deep, each once per chain.
bool forEachExecuted(const Stmt &Root, ASTContext &Ctx,
                     llvm::function_ref<bool(const Stmt &, CallChain)> Visit,
                     unsigned Depth = 3);

/// The argument \p Call passes for \p Param, or null.
const Expr *argumentFor(const CallExpr &Call, const ParmVarDecl &Param);

/// The object that \p Object, a variable or field named in the function at
/// the end of \p Chain, is in the caller at its start: a reference or
/// pointer parameter becomes the argument passed for it (\p ObjectOf names
/// an argument's object), step by step. Null when an argument names none.
const ValueDecl *
objectInCaller(const ValueDecl *Object, CallChain Chain,
               llvm::function_ref<const ValueDecl *(const Expr *)> ObjectOf);

/// The object \p Object stands for wherever it is named: a parameter of a
/// function that the main file calls from one place only is the object that
/// call passes (\p ObjectOf names an argument's object), followed back as far
/// as that goes. Anything else is itself.
const ValueDecl *
canonicalObject(const ValueDecl *Object, const CallSites &Calls,
                llvm::function_ref<const ValueDecl *(const Expr *)> ObjectOf);

} // namespace clang::tidy::torch_tidy::utils

#endif // TORCH_TIDY_CHECKS_UTILS_EXECUTION_H
