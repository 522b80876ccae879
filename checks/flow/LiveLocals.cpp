//===--- LiveLocals.cpp - Forgetting the locals nothing reads again -------===//

#include "LiveLocals.h"
#include "api/TorchApi.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::torch_tidy::flow {

namespace {
/// The locals read where their name is not: those a lambda captures (read
/// where it is called), and those named in the range of a range-for (read
/// at each iteration's loop variable) or in a device's or options'
/// initialiser (read wherever that device is used).
struct IndirectReads : RecursiveASTVisitor<IndirectReads> {
  llvm::DenseSet<const VarDecl *> &Out;
  explicit IndirectReads(llvm::DenseSet<const VarDecl *> &Out) : Out(Out) {}

  bool VisitLambdaExpr(LambdaExpr *Lambda) {
    for (const LambdaCapture &Capture : Lambda->captures())
      if (Capture.capturesVariable())
        if (const auto *Var = dyn_cast<VarDecl>(Capture.getCapturedVar()))
          Out.insert(Var);
    return true;
  }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *Loop) {
    namedIn(Loop->getRangeInit());
    return true;
  }
  bool VisitVarDecl(VarDecl *Var) {
    QualType Type = Var->getType().getNonReferenceType();
    if (api::namesADevice(Type) || api::isTensorOptionsType(Type))
      namedIn(Var->getInit());
    return true;
  }

  void namedIn(const Expr *E) {
    if (E)
      for (const VarDecl *Var : utils::localsNamedIn(*E))
        Out.insert(Var);
  }
};
} // namespace

LiveLocals::LiveLocals(const CFG &Graph, const Stmt &Body) : Liveness(Graph) {
  IndirectReads(ReadIndirectly).TraverseStmt(const_cast<Stmt *>(&Body));
}

bool LiveLocals::mayForget(const ValueDecl *D) const {
  const auto *Var = dyn_cast_or_null<VarDecl>(D);
  return Var && Var->hasLocalStorage() && !isa<ParmVarDecl>(Var) &&
         !isa<DecompositionDecl>(Var) && !Var->getType()->isReferenceType() &&
         !ReadIndirectly.contains(Var);
}

void LiveLocals::forgetDead(const CFGBlock &Block, State &S) const {
  for (auto It = S.Tensors.begin(); It != S.Tensors.end();) {
    const auto *Var = dyn_cast_or_null<VarDecl>(It->first.Base);
    bool Dead = mayForget(Var) && !Liveness.isLiveAtExit(Block, Var);
    It = Dead ? S.Tensors.erase(It) : std::next(It);
  }
}

} // namespace clang::tidy::torch_tidy::flow
