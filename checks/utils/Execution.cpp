//===--- Execution.cpp - What running a statement executes ----------------===//

#include "Execution.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::torch_tidy::utils {

namespace {

class Walker {
public:
  Walker(ASTContext &Ctx,
         llvm::function_ref<bool(const Stmt &, CallChain)> Visit,
         unsigned Depth)
      : SM(Ctx.getSourceManager()), Visit(Visit), Depth(Depth) {}

  bool walk(const Stmt &S) {
    if (!Visit(S, Chain))
      return false;
    if (const auto *Call = dyn_cast<CallExpr>(&S))
      if (!enter(*Call))
        return false;
    for (const Stmt *Child : S.children())
      if (Child && !walk(*Child))
        return false;
    return true;
  }

private:
  /// Walks the body of \p Call's callee when it is defined in the main file.
  bool enter(const CallExpr &Call) {
    const FunctionDecl *Callee = Call.getDirectCallee();
    const FunctionDecl *Definition = nullptr;
    if (!Callee || Chain.size() >= Depth || !Callee->hasBody(Definition) ||
        !SM.isInMainFile(SM.getExpansionLoc(Definition->getLocation())))
      return true;
    for (const CallExpr *Outer : Chain)
      if (Outer->getDirectCallee()->getCanonicalDecl() ==
          Callee->getCanonicalDecl())
        return true; // recursion
    Chain.push_back(&Call);
    bool Going = walk(*Definition->getBody());
    Chain.pop_back();
    return Going;
  }

  const SourceManager &SM;
  llvm::function_ref<bool(const Stmt &, CallChain)> Visit;
  unsigned Depth;
  llvm::SmallVector<const CallExpr *, 4> Chain;
};

} // namespace

bool forEachExecuted(const Stmt &Root, ASTContext &Ctx,
                     llvm::function_ref<bool(const Stmt &, CallChain)> Visit,
                     unsigned Depth) {
  return Walker(Ctx, Visit, Depth).walk(Root);
}

const Expr *argumentFor(const CallExpr &Call, const ParmVarDecl &Param) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Call.getDirectCallee());
  unsigned Index = Param.getFunctionScopeIndex() +
                   (isa<CXXOperatorCallExpr>(Call) && Method &&
                    Method->isInstance());
  return Index < Call.getNumArgs() ? Call.getArg(Index) : nullptr;
}

const ValueDecl *
objectInCaller(const ValueDecl *Object, CallChain Chain,
               llvm::function_ref<const ValueDecl *(const Expr *)> ObjectOf) {
  for (auto It = Chain.rbegin(); It != Chain.rend() && Object; ++It) {
    const auto *Param = dyn_cast<ParmVarDecl>(Object);
    if (!Param || Param->getDeclContext() !=
                      (*It)->getDirectCallee()->getDefinition())
      return Object;
    const Expr *Arg = argumentFor(**It, *Param);
    Object = Arg ? ObjectOf(Arg) : nullptr;
  }
  return Object;
}

const ValueDecl *
canonicalObject(const ValueDecl *Object, const CallSites &Calls,
                llvm::function_ref<const ValueDecl *(const Expr *)> ObjectOf) {
  for (unsigned Steps = 0; Steps < 8 && Object; ++Steps) {
    const auto *Param = dyn_cast<ParmVarDecl>(Object);
    const auto *Fn =
        Param ? dyn_cast<FunctionDecl>(Param->getDeclContext()) : nullptr;
    if (!Fn || Calls.of(*Fn).size() != 1)
      return Object;
    const Expr *Arg = argumentFor(*Calls.of(*Fn).front(), *Param);
    const ValueDecl *Passed = Arg ? ObjectOf(Arg) : nullptr;
    if (!Passed)
      return Object;
    Object = Passed;
  }
  return Object;
}

} // namespace clang::tidy::torch_tidy::utils
