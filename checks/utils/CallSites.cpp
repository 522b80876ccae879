//===--- CallSites.cpp - Who calls each function of the main file ---------===//

#include "CallSites.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::torch_tidy::utils {

namespace {

class Indexer : public RecursiveASTVisitor<Indexer> {
public:
  Indexer(const SourceManager &SM,
          llvm::DenseMap<const FunctionDecl *, std::vector<const CallExpr *>>
              &Calls)
      : SM(SM), Calls(Calls) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitCallExpr(CallExpr *Call) {
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      if (SM.isInMainFile(SM.getExpansionLoc(Call->getBeginLoc())))
        Calls[Callee->getCanonicalDecl()].push_back(Call);
    return true;
  }

private:
  const SourceManager &SM;
  llvm::DenseMap<const FunctionDecl *, std::vector<const CallExpr *>> &Calls;
};

} // namespace

CallSites::CallSites(ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  Indexer Index(SM, Calls);
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
      Index.TraverseDecl(D);
}

llvm::ArrayRef<const CallExpr *> CallSites::of(const FunctionDecl &Fn) const {
  auto It = Calls.find(Fn.getCanonicalDecl());
  if (It == Calls.end())
    return {};
  return It->second;
}

} // namespace clang::tidy::torch_tidy::utils
