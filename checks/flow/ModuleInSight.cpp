//===--- ModuleInSight.cpp - Whether only followed code may move a module -===//

#include "ModuleInSight.h"
#include "api/TorchApi.h"
#include "utils/AstHelpers.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::torch_tidy::flow {

namespace {

/// `Net net(...)`, `std::make_shared<Net>(...)`, `torch::nn::Linear fc(...)`:
/// a new module, not one a function of the user's returns (which may have
/// moved it).
bool constructsModule(const Expr *Init) {
  if (!Init || !api::isBuiltWithoutDevice(*Init))
    return false;
  const Expr *Built = Init->IgnoreImplicit();
  if (isa<CXXConstructExpr>(Built))
    return true;
  const auto *Call = dyn_cast<CallExpr>(Built);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return Callee && Callee->isInStdNamespace() &&
         utils::isNamedOneOf(Callee, {"make_shared"});
}

/// Whether a method of \p Module (or of a base of the user's) may move it
/// where the dataflow does not see: an override of to(), a Module::to call
/// in a method, a constructor defined in another file.
bool mayMoveItself(const CXXRecordDecl &Module, ASTContext &Ctx) {
  if (api::isLibTorchInternal(&Module))
    return false;
  for (const CXXMethodDecl *Method : Module.methods()) {
    if (utils::isNamedOneOf(Method, {"to"}))
      return true;
    const FunctionDecl *Definition = Method->getDefinition();
    if (!Definition || !Definition->getBody()) {
      if (isa<CXXConstructorDecl>(Method) && Method->isUserProvided())
        return true;
      continue;
    }
    for (const auto &Bound :
         match(findAll(cxxMemberCallExpr().bind("call")),
               *Definition->getBody(), Ctx))
      if (api::isModuleTo(*Bound.getNodeAs<CXXMemberCallExpr>("call")))
        return true;
  }
  for (const CXXBaseSpecifier &Base : Module.bases())
    if (const CXXRecordDecl *Record = Base.getType()->getAsCXXRecordDecl())
      if (Record->hasDefinition() && mayMoveItself(*Record->getDefinition(), Ctx))
        return true;
  return false;
}

/// Counts the uses of a module variable in its function, and those that
/// leave it where it is: a call of forward(), parameters(), train(), a
/// method of its own class (which mayMoveItself() read), torch::save, and Module::to (which the dataflow
/// follows). Any other use (a copy, an argument to a function, a capture by
/// a lambda) may move it out of the dataflow's sight.
struct ModuleUses : RecursiveASTVisitor<ModuleUses> {
  const VarDecl *Var;
  const CallExpr *PassedBy;
  unsigned All = 0;
  unsigned Staying = 0;
  bool Captured = false;

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (Ref->getDecl() == Var) {
      ++All;
      Captured |= Ref->refersToEnclosingVariableOrCapture();
    }
    return true;
  }

  bool VisitCallExpr(CallExpr *Call) {
    if (Call == PassedBy) {
      Staying += llvm::count_if(Call->arguments(), [&](const Expr *Arg) {
        return api::moduleReceiver(Arg) == Var;
      });
      return true;
    }
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee)
      return true;
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
      if (api::moduleReceiver(Member->getImplicitObjectArgument()) == Var &&
          (api::isModuleTo(*Member) || api::leavesModuleInPlace(*Callee) ||
           !api::isLibTorchInternal(Callee)))
        ++Staying;
      return true;
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
      // `model(x)`: the holder's forward.
      if (Op->getOperator() == OO_Call &&
          api::moduleReceiver(Op->getArg(0)) == Var)
        ++Staying;
      return true;
    }
    if (Call->getNumArgs() && api::leavesModuleInPlace(*Callee) &&
        api::moduleReceiver(Call->getArg(0)) == Var)
      ++Staying; // torch::save(model, path)
    return true;
  }
};

} // namespace

bool movedOnlyInSight(const VarDecl &Var, ASTContext &Ctx,
                      const CallExpr *PassedBy) {
  const auto *Fn = dyn_cast_or_null<FunctionDecl>(Var.getParentFunctionOrMethod());
  const CXXRecordDecl *Module = api::heldModule(Var.getType());
  if (!Fn || !Fn->getBody() || !Module || !Var.hasLocalStorage() ||
      (!isa<ParmVarDecl>(Var) && (Var.getType()->isReferenceType() ||
                                  !constructsModule(Var.getInit()))) ||
      mayMoveItself(*Module, Ctx))
    return false;
  ModuleUses Uses;
  Uses.Var = &Var;
  Uses.PassedBy = PassedBy;
  Uses.TraverseStmt(Fn->getBody());
  return !Uses.Captured && Uses.All == Uses.Staying;
}

} // namespace clang::tidy::torch_tidy::flow
