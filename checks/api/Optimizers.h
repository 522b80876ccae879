//===--- Optimizers.h - What LibTorch's optimizers do to their tensors ----===//

#ifndef TORCH_TIDY_CHECKS_API_OPTIMIZERS_H
#define TORCH_TIDY_CHECKS_API_OPTIMIZERS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace clang::tidy::torch_tidy::api {

/// A torch::optim optimizer constructed in \p Body with \p Var among its
/// parameters: it updates \p Var in place at every step() and refuses it if
/// it is not a leaf.
const Expr *optimizerGiven(const VarDecl &Var, const Stmt &Body,
                           ASTContext &Ctx);

/// The closure of `optimizer.step(closure)`: every torch::optim optimizer
/// calls it (LBFGS many times) before step() returns. Null for a step()
/// without one.
const Expr *closureRunByStep(const CallExpr &Call);

} // namespace clang::tidy::torch_tidy::api

#endif // TORCH_TIDY_CHECKS_API_OPTIMIZERS_H
