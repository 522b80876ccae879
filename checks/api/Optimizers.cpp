//===--- Optimizers.cpp - What LibTorch's optimizers do to their tensors --===//

#include "Optimizers.h"
#include "TorchApi.h"
#include "clang/AST/ExprCXX.h"
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

const Expr *closureRunByStep(const CallExpr &Call) {
  const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call);
  const CXXMethodDecl *Method = Member ? Member->getMethodDecl() : nullptr;
  if (!Method || Method->getName() != "step" || Call.getNumArgs() != 1 ||
      isa<CXXDefaultArgExpr>(Call.getArg(0)) ||
      !isOrDerivesFrom(Method->getParent(), "torch::optim::Optimizer"))
    return nullptr;
  return Call.getArg(0);
}

} // namespace clang::tidy::torch_tidy::api
