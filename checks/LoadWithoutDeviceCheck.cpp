//===--- LoadWithoutDeviceCheck.cpp - device-load-without-device ----------===//

#include "LoadWithoutDeviceCheck.h"
#include "api/TorchApi.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::torch_tidy {

void LoadWithoutDeviceCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(
      callExpr(callee(api::checkpointLoadFunction().bind("fn"))).bind("call"),
      this);
}

static bool passesADevice(const CallExpr &Call) {
  for (const Expr *Arg : Call.arguments())
    if (!isa<CXXDefaultArgExpr>(Arg) && api::namesADevice(Arg->getType()))
      return true;
  return false;
}

static void addDevicesDeclaredIn(const CompoundStmt &Block,
                                 SourceLocation Before, const SourceManager &SM,
                                 llvm::SmallVectorImpl<const ValueDecl *> &Out) {
  for (const Stmt *S : Block.body()) {
    if (!SM.isBeforeInTranslationUnit(S->getEndLoc(), Before))
      break;
    if (const auto *Decls = dyn_cast<DeclStmt>(S))
      for (const Decl *D : Decls->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D))
          if (api::isDeviceType(Var->getType()))
            Out.push_back(Var);
  }
}

/// The `c10::Device` variables that can be named at \p Call: locals declared
/// before it in enclosing blocks, parameters, and fields of the class.
static llvm::SmallVector<const ValueDecl *, 2>
devicesInScope(const CallExpr &Call, ASTContext &Ctx) {
  llvm::SmallVector<const ValueDecl *, 2> Devices;
  DynTypedNodeList Parents = Ctx.getParents(Call);
  while (!Parents.empty()) {
    const DynTypedNode &Parent = Parents[0];
    if (const auto *Block = Parent.get<CompoundStmt>())
      addDevicesDeclaredIn(*Block, Call.getBeginLoc(), Ctx.getSourceManager(),
                           Devices);
    if (Parent.get<LambdaExpr>())
      break; // Captures would change the lambda: stop at its boundary.
    if (const auto *Fn = Parent.get<FunctionDecl>()) {
      for (const ParmVarDecl *Param : Fn->parameters())
        if (api::isDeviceType(Param->getType()))
          Devices.push_back(Param);
      if (const auto *Method = dyn_cast<CXXMethodDecl>(Fn))
        for (const FieldDecl *Field : Method->getParent()->fields())
          if (api::isDeviceType(Field->getType()))
            Devices.push_back(Field);
      break;
    }
    Parents = Ctx.getParents(Parent);
  }
  return Devices;
}

void LoadWithoutDeviceCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CallExpr>("call");
  const auto *Fn = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  if (passesADevice(*Call) || Call->getBeginLoc().isMacroID())
    return;

  std::string Name = Fn->getQualifiedNameAsString();
  auto Diag = diag(Call->getBeginLoc(),
                   "'%0' without a device restores every tensor to the device "
                   "it was saved from%select{|, and the existing parameters "
                   "adopt it}1; pass the device to load to")
              << Name << (Name == "torch::load") << Call->getSourceRange();
  auto Devices = devicesInScope(*Call, *Result.Context);
  if (Devices.size() == 1 && Call->getRParenLoc().isValid() &&
      !Call->getRParenLoc().isMacroID())
    Diag << FixItHint::CreateInsertion(Call->getRParenLoc(),
                                       ", " + Devices.front()->getName().str());
}

} // namespace clang::tidy::torch_tidy
