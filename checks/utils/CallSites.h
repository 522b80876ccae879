//===--- CallSites.h - Who calls each function of the main file -*- C++ -*-===//
//
// The calls, in the main file, of each function: what a rule needs to follow
// a helper back to the loops and scopes that call it. Lambdas called by name
// count as functions (their call operator). Knows nothing of LibTorch.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_UTILS_CALLSITES_H
#define TORCH_TIDY_CHECKS_UTILS_CALLSITES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include <vector>

namespace clang::tidy::torch_tidy::utils {

class CallSites {
public:
  /// Indexes every call written in the main file of \p Ctx, template
  /// instantiations included.
  explicit CallSites(ASTContext &Ctx);

  /// The calls of \p Fn (any of its declarations) in the main file.
  llvm::ArrayRef<const CallExpr *> of(const FunctionDecl &Fn) const;

private:
  llvm::DenseMap<const FunctionDecl *, std::vector<const CallExpr *>> Calls;
};

} // namespace clang::tidy::torch_tidy::utils

#endif // TORCH_TIDY_CHECKS_UTILS_CALLSITES_H
