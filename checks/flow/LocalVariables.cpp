//===--- LocalVariables.cpp - Syntactic facts of a function's locals ------===//

#include "LocalVariables.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

namespace clang::tidy::torch_tidy::flow {

LocalVariables::LocalVariables(const Stmt &Body, ASTContext &Ctx)
    : Body(Body), Ctx(Ctx) {
  struct Finder : RecursiveASTVisitor<Finder> {
    llvm::DenseMap<const VarDecl *, const Expr *> *Out;
    bool VisitCXXForRangeStmt(CXXForRangeStmt *Loop) {
      (*Out)[Loop->getLoopVariable()] = Loop->getRangeInit();
      return true;
    }
  } Finder;
  Finder.Out = &LoopRanges;
  Finder.TraverseStmt(const_cast<Stmt *>(&Body));
}

LocalVariables::~LocalVariables() = default;

const Expr *LocalVariables::aliasedBy(const ValueDecl *D) const {
  if (const auto *Binding = dyn_cast_or_null<BindingDecl>(D))
    D = Binding->getDecomposedDecl();
  const auto *Var = dyn_cast_or_null<VarDecl>(D);
  if (!Var || !Var->getType()->isReferenceType() || isa<ParmVarDecl>(Var))
    return nullptr;
  if (const Expr *Range = loopRange(Var))
    return Range;
  return Var->getInit();
}

bool LocalVariables::isFixed(const VarDecl *Var) const {
  if (!Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var) ||
      !Var->getInit())
    return false;
  if (!Mutations)
    Mutations = std::make_unique<ExprMutationAnalyzer>(Body, Ctx);
  return !Mutations->isMutated(Var);
}

} // namespace clang::tidy::torch_tidy::flow
