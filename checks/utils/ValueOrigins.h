//===--- ValueOrigins.h - Where a variable's value comes from ---*- C++ -*-===//
//
// The expressions that can have given a value its contents, one step back:
// a local variable's initializer and the right-hand sides of its
// assignments, the arguments that the calls of the translation unit pass to
// a parameter, the values a function of the main file returns, and every
// value written to a field (assignments, constructor initializers, default
// member initializers, aggregate initialization). Knows nothing of LibTorch.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_UTILS_VALUEORIGINS_H
#define TORCH_TIDY_CHECKS_UTILS_VALUEORIGINS_H

#include "CallSites.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>
#include <vector>

namespace clang::tidy::torch_tidy::utils {

class ValueOrigins {
public:
  ValueOrigins(ASTContext &Ctx, const CallSites &Calls);

  /// The expressions whose values \p E may hold, when \p E is a local
  /// variable, a parameter, a field or a call of a function of the main file
  /// and every write to it is seen. Nothing when one is not: a variable
  /// modified another way (`+=`, passed by reference), a parameter of a
  /// function never called in the file, a function without a body.
  std::optional<std::vector<const Expr *>> of(const Expr &E);
  /// The same for a variable, parameter or field itself.
  std::optional<std::vector<const Expr *>> of(const ValueDecl &D);

private:
  std::optional<std::vector<const Expr *>> ofLocal(const VarDecl &Var);
  std::optional<std::vector<const Expr *>> ofParameter(const ParmVarDecl &Param);
  std::optional<std::vector<const Expr *>> ofField(const FieldDecl &Field);
  std::optional<std::vector<const Expr *>> ofCall(const CallExpr &Call);
  void indexFieldWrites();

  ASTContext &Ctx;
  const CallSites &Calls;
  bool FieldsIndexed = false;
  /// Every value written to each field of the main file; a field written in
  /// a way that is not seen maps to nothing.
  llvm::DenseMap<const FieldDecl *, std::optional<std::vector<const Expr *>>>
      FieldWrites;
};

} // namespace clang::tidy::torch_tidy::utils

#endif // TORCH_TIDY_CHECKS_UTILS_VALUEORIGINS_H
