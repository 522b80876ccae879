//===--- AstHelpers.cpp - Small AST queries shared by the checks ----------===//

#include "AstHelpers.h"
#include "api/TorchApi.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::torch_tidy::utils {

using namespace ast_matchers;

static bool isTransparentWrapper(const Stmt &S) {
  return isa<ExprWithCleanups, CXXBindTemporaryExpr, MaterializeTemporaryExpr,
             ImplicitCastExpr, ParenExpr, ConstantExpr>(S);
}

/// Whether \p Child is in a position of \p Parent where a value is discarded.
static bool isStatementPosition(const Stmt &Parent, const Stmt &Child) {
  if (isa<CompoundStmt, CaseStmt, DefaultStmt, LabelStmt, AttributedStmt>(
          Parent))
    return true;
  if (const auto *If = dyn_cast<IfStmt>(&Parent))
    return If->getThen() == &Child || If->getElse() == &Child;
  if (const auto *For = dyn_cast<ForStmt>(&Parent))
    return For->getBody() == &Child || For->getInc() == &Child;
  if (const auto *While = dyn_cast<WhileStmt>(&Parent))
    return While->getBody() == &Child;
  if (const auto *Do = dyn_cast<DoStmt>(&Parent))
    return Do->getBody() == &Child;
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(&Parent))
    return Range->getBody() == &Child;
  return false;
}

bool isDiscardedResult(const Expr &E, ASTContext &Ctx) {
  const Stmt *Current = &E;
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(*Current);
    if (Parents.size() != 1)
      return false;
    const Stmt *Parent = Parents[0].get<Stmt>();
    if (!Parent)
      return false;
    if (!isTransparentWrapper(*Parent))
      return isStatementPosition(*Parent, *Current);
    Current = Parent;
  }
}

const Expr *ignoreTemporaries(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(E))
      E = Cleanups->getSubExpr();
    else if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(E))
      E = Temp->getSubExpr();
    else if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E))
      E = Bind->getSubExpr();
    else if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
             Construct && Construct->getNumArgs() == 1 &&
             Construct->getConstructor()->isCopyOrMoveConstructor())
      E = Construct->getArg(0);
    else if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
      E = Cast->getSubExpr();
    else
      return E;
  }
}

const ValueDecl *namedObject(const Expr &E) {
  const Expr *Bare = E.IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Bare))
    return dyn_cast<VarDecl>(Ref->getDecl());
  if (const auto *Member = dyn_cast<MemberExpr>(Bare))
    if (isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()))
      return dyn_cast<FieldDecl>(Member->getMemberDecl());
  return nullptr;
}

std::vector<const Expr *> referencesAfter(const ValueDecl &Decl,
                                          const Stmt &Body,
                                          SourceLocation After,
                                          ASTContext &Ctx) {
  auto Refs = match(
      findAll(expr(anyOf(declRefExpr(to(equalsNode(&Decl))),
                         memberExpr(member(equalsNode(&Decl)),
                                    hasObjectExpression(cxxThisExpr()))))
                  .bind("ref")),
      Body, Ctx);
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<const Expr *> Uses;
  for (const BoundNodes &Ref : Refs) {
    const auto *Use = Ref.getNodeAs<Expr>("ref");
    if (SM.isBeforeInTranslationUnit(After, Use->getBeginLoc()))
      Uses.push_back(Use);
  }
  llvm::sort(Uses, [&](const Expr *A, const Expr *B) {
    return SM.isBeforeInTranslationUnit(A->getBeginLoc(), B->getBeginLoc());
  });
  return Uses;
}

const Expr *firstReferenceAfter(const ValueDecl &Decl, const Stmt &Body,
                                SourceLocation After, ASTContext &Ctx) {
  std::vector<const Expr *> Uses = referencesAfter(Decl, Body, After, Ctx);
  return Uses.empty() ? nullptr : Uses.front();
}

const Stmt *enclosingFunctionBody(const Stmt &S, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(S);
  while (!Parents.empty()) {
    const DynTypedNode &Parent = Parents[0];
    if (const auto *Fn = Parent.get<FunctionDecl>())
      return Fn->getBody();
    if (const auto *Lambda = Parent.get<LambdaExpr>())
      return Lambda->getBody();
    Parents = Ctx.getParents(Parent);
  }
  return nullptr;
}

std::optional<std::string> sourceText(const Expr &E, const ASTContext &Ctx) {
  SourceRange Range = E.getSourceRange();
  if (Range.getBegin().isMacroID() || Range.getEnd().isMacroID())
    return std::nullopt;
  return Lexer::getSourceText(CharSourceRange::getTokenRange(Range),
                              Ctx.getSourceManager(), Ctx.getLangOpts())
      .str();
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
          if (api::isDeviceOrDeviceType(Var->getType()))
            Out.push_back(Var);
  }
}

/// The `c10::Device` variables that can be named at \p Call: locals declared
/// before it in enclosing blocks, parameters, and fields of the class.
llvm::SmallVector<const ValueDecl *, 2>
devicesInScope(const Stmt &Call, ASTContext &Ctx) {
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
        if (api::isDeviceOrDeviceType(Param->getType()))
          Devices.push_back(Param);
      if (const auto *Method = dyn_cast<CXXMethodDecl>(Fn))
        for (const FieldDecl *Field : Method->getParent()->fields())
          if (api::isDeviceOrDeviceType(Field->getType()))
            Devices.push_back(Field);
      break;
    }
    Parents = Ctx.getParents(Parent);
  }
  return Devices;
}

const StringLiteral *stringLiteralOf(const Expr &E) {
  const Expr *Current = &E;
  while (true) {
    Current = Current->IgnoreParenImpCasts();
    if (const auto *Literal = dyn_cast<StringLiteral>(Current))
      return Literal;
    if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(Current))
      Current = Temporary->getSubExpr();
    else if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(Current))
      Current = Bind->getSubExpr();
    else if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(Current))
      Current = Cast->getSubExpr();
    else if (const auto *Construct = dyn_cast<CXXConstructExpr>(Current)) {
      const CXXRecordDecl *Class = Construct->getConstructor()->getParent();
      if (Construct->getNumArgs() == 0 || !Class->isInStdNamespace() ||
          Class->getName() != "basic_string")
        return nullptr;
      for (unsigned I = 1; I < Construct->getNumArgs(); ++I)
        if (!isa<CXXDefaultArgExpr>(Construct->getArg(I)))
          return nullptr;
      Current = Construct->getArg(0);
    } else
      return nullptr;
  }
}

const FunctionDecl *enclosingFunction(const Stmt &S, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(S);
  while (!Parents.empty()) {
    if (const auto *Fn = Parents[0].get<FunctionDecl>())
      return Fn;
    if (const auto *Lambda = Parents[0].get<LambdaExpr>())
      return Lambda->getCallOperator();
    Parents = Ctx.getParents(Parents[0]);
  }
  return nullptr;
}

bool isUnderCondition(const Stmt &S, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(S);
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty() || Parents[0].get<FunctionDecl>() ||
        Parents[0].get<LambdaExpr>())
      return false;
    const Stmt *Child = Node.get<Stmt>();
    if (const Stmt *Parent = Parents[0].get<Stmt>()) {
      if (isa<SwitchCase>(Parent))
        return true;
      if (const auto *If = dyn_cast<IfStmt>(Parent);
          If && (If->getThen() == Child || If->getElse() == Child))
        return true;
      if (const auto *Ternary = dyn_cast<AbstractConditionalOperator>(Parent);
          Ternary && Ternary->getCond() != Child)
        return true;
      if (const auto *Logical = dyn_cast<BinaryOperator>(Parent);
          Logical && Logical->isLogicalOp() && Logical->getRHS() == Child)
        return true;
    }
    Node = Parents[0];
  }
}

bool containsErrors(const Stmt &S) {
  llvm::SmallVector<const Stmt *, 32> Work = {&S};
  while (!Work.empty()) {
    const Stmt *Current = Work.pop_back_val();
    if (!Current)
      continue;
    if (const auto *E = dyn_cast<Expr>(Current); E && E->containsErrors())
      return true;
    if (const auto *Decls = dyn_cast<DeclStmt>(Current))
      for (const Decl *D : Decls->decls())
        if (D->isInvalidDecl())
          return true;
    llvm::append_range(Work, Current->children());
  }
  return false;
}

bool containsErrors(const CXXRecordDecl &Record) {
  if (Record.isInvalidDecl())
    return true;
  for (const FieldDecl *Field : Record.fields())
    if (Field->isInvalidDecl())
      return true;
  for (const CXXMethodDecl *Method : Record.methods()) {
    if (Method->isInvalidDecl())
      return true;
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Method))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->getInit() && containsErrors(*Init->getInit()))
          return true;
    if (const Stmt *Body = Method->getBody(); Body && containsErrors(*Body))
      return true;
  }
  return false;
}

static bool isWholeTranslationUnit(const std::vector<Decl *> &Scope) {
  return Scope.size() == 1 && isa<TranslationUnitDecl>(Scope.front());
}

std::vector<Decl *> scopeDeclarations(ASTContext &Ctx) {
  std::vector<Decl *> Scope = Ctx.getTraversalScope();
  if (!isWholeTranslationUnit(Scope))
    return Scope;
  const TranslationUnitDecl *Unit = Ctx.getTranslationUnitDecl();
  return std::vector<Decl *>(Unit->decls_begin(), Unit->decls_end());
}

std::vector<Decl *> declarationsOutsideScope(ASTContext &Ctx) {
  std::vector<Decl *> Scope = Ctx.getTraversalScope();
  if (isWholeTranslationUnit(Scope))
    return {};
  llvm::DenseSet<const Decl *> Inside(Scope.begin(), Scope.end());
  std::vector<Decl *> Outside;
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (!Inside.contains(D))
      Outside.push_back(D);
  return Outside;
}

} // namespace clang::tidy::torch_tidy::utils
