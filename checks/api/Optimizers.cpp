//===--- Optimizers.cpp - What LibTorch's optimizers do to their tensors --===//

#include "Optimizers.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::torch_tidy::api {

const Expr *optimizerGiven(const VarDecl &Var, const Stmt &Body,
                           ASTContext &Ctx) {
  auto Matches = match(
      findAll(cxxConstructExpr(
                  hasDeclaration(cxxConstructorDecl(ofClass(cxxRecordDecl(
                      matchesName("^::torch::optim::"))))),
                  hasDescendant(declRefExpr(to(equalsNode(&Var)))))
                  .bind("optimizer")),
      Body, Ctx);
  return Matches.empty() ? nullptr
                         : Matches.front().getNodeAs<Expr>("optimizer");
}

} // namespace clang::tidy::torch_tidy::api
