//===--- AstHelpers.cpp - Small AST queries shared by the checks ----------===//

#include "AstHelpers.h"
#include "clang-tidy/utils/ExprSequence.h"
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

bool isNamedOneOf(const NamedDecl *D,
                  std::initializer_list<llvm::StringRef> Names) {
  return D && D->getDeclName().isIdentifier() &&
         llvm::is_contained(Names, D->getName());
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

/// How many edges lead from \p From to each block it reaches, \p From itself
/// included when a loop leads back to it: the order in which what follows a
/// statement of \p From runs.
static llvm::DenseMap<const CFGBlock *, unsigned>
distancesFrom(const CFGBlock &From) {
  llvm::DenseMap<const CFGBlock *, unsigned> Distance;
  std::vector<const CFGBlock *> Frontier = {&From};
  for (unsigned Steps = 1; !Frontier.empty(); ++Steps) {
    std::vector<const CFGBlock *> Next;
    for (const CFGBlock *Block : Frontier)
      for (const CFGBlock *Succ : Block->succs())
        if (Succ && Distance.try_emplace(Succ, Steps).second && Succ != &From)
          Next.push_back(Succ);
    Frontier = std::move(Next);
  }
  return Distance;
}

std::vector<const Expr *> referencesAfter(const ValueDecl &Decl,
                                          const Stmt &Body, const Stmt &After,
                                          ASTContext &Ctx) {
  CFG::BuildOptions Options;
  Options.AddImplicitDtors = true;
  Options.AddTemporaryDtors = true;
  std::unique_ptr<CFG> Graph =
      CFG::buildCFG(nullptr, const_cast<Stmt *>(&Body), &Ctx, Options);
  if (!Graph)
    return {};
  // As clang-tidy's bugprone-use-after-move orders uses: by the CFG between
  // blocks (a loop runs a block again), by sequencing within one.
  tidy::utils::ExprSequence Sequence(Graph.get(), &Body, &Ctx);
  tidy::utils::StmtToBlockMap Blocks(Graph.get(), &Ctx);
  const CFGBlock *AfterBlock = Blocks.blockContainingStmt(&After);
  if (!AfterBlock)
    return {};
  llvm::DenseMap<const CFGBlock *, unsigned> Distance =
      distancesFrom(*AfterBlock);
  // The operands of After itself are evaluated before it, also on a loop's
  // next pass.
  auto Refs = match(
      findAll(expr(anyOf(declRefExpr(to(equalsNode(&Decl))),
                         memberExpr(member(equalsNode(&Decl)),
                                    hasObjectExpression(cxxThisExpr()))),
                   unless(hasAncestor(stmt(equalsNode(&After)))))
                  .bind("ref")),
      Body, Ctx);
  // Each use, with how many blocks run between After and it.
  std::vector<std::pair<unsigned, const Expr *>> Uses;
  for (const BoundNodes &Ref : Refs) {
    const auto *Use = Ref.getNodeAs<Expr>("ref");
    const CFGBlock *UseBlock = Blocks.blockContainingStmt(Use);
    if (!UseBlock)
      continue;
    if (UseBlock == AfterBlock && !Sequence.inSequence(Use, &After)) {
      Uses.push_back({0, Use}); // later in the same pass
      continue;
    }
    // Another block, or After's own on a loop's next pass.
    if (auto It = Distance.find(UseBlock); It != Distance.end())
      Uses.push_back({It->second, Use});
  }
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::sort(Uses, [&](const auto &A, const auto &B) {
    if (A.first != B.first)
      return A.first < B.first;
    return SM.isBeforeInTranslationUnit(A.second->getBeginLoc(),
                                        B.second->getBeginLoc());
  });
  std::vector<const Expr *> Ordered;
  for (const auto &[Steps, Use] : Uses)
    Ordered.push_back(Use);
  return Ordered;
}

const Expr *firstReferenceAfter(const ValueDecl &Decl, const Stmt &Body,
                                const Stmt &After, ASTContext &Ctx) {
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

static void addVariablesDeclaredIn(const CompoundStmt &Block,
                                   SourceLocation Before,
                                   const SourceManager &SM,
                                   llvm::function_ref<bool(QualType)> Wanted,
                                   llvm::SmallVectorImpl<const ValueDecl *> &Out) {
  for (const Stmt *S : Block.body()) {
    if (!SM.isBeforeInTranslationUnit(S->getEndLoc(), Before))
      break;
    if (const auto *Decls = dyn_cast<DeclStmt>(S))
      for (const Decl *D : Decls->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D))
          if (Wanted(Var->getType()))
            Out.push_back(Var);
  }
}

llvm::SmallVector<const ValueDecl *, 2>
variablesInScope(const Stmt &Call, ASTContext &Ctx,
                 llvm::function_ref<bool(QualType)> Wanted) {
  llvm::SmallVector<const ValueDecl *, 2> Devices;
  DynTypedNodeList Parents = Ctx.getParents(Call);
  while (!Parents.empty()) {
    const DynTypedNode &Parent = Parents[0];
    if (const auto *Block = Parent.get<CompoundStmt>())
      addVariablesDeclaredIn(*Block, Call.getBeginLoc(),
                             Ctx.getSourceManager(), Wanted, Devices);
    if (Parent.get<LambdaExpr>())
      break; // Captures would change the lambda: stop at its boundary.
    if (const auto *Fn = Parent.get<FunctionDecl>()) {
      for (const ParmVarDecl *Param : Fn->parameters())
        if (Wanted(Param->getType()))
          Devices.push_back(Param);
      if (const auto *Method = dyn_cast<CXXMethodDecl>(Fn))
        for (const FieldDecl *Field : Method->getParent()->fields())
          if (Wanted(Field->getType()))
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

bool isUnderConditionWithin(const Stmt &S, const Stmt *Ancestor,
                            ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(S);
  while (!Ancestor || Node.get<Stmt>() != Ancestor) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty() || Parents[0].get<FunctionDecl>() ||
        Parents[0].get<LambdaExpr>())
      return false;
    // Null where the child is a declaration (`auto saved = m.to(d);`).
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
  return false;
}

bool isUnderCondition(const Stmt &S, ASTContext &Ctx) {
  return isUnderConditionWithin(S, nullptr, Ctx);
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
    // An out-of-line constructor keeps its initialisers on its definition.
    if (const auto *Ctor =
            dyn_cast_or_null<CXXConstructorDecl>(Method->getDefinition()))
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

const CXXMethodDecl *lambdaCallOperator(const Expr &E) {
  const Expr *Inner = ignoreTemporaries(&E);
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Inner);
      Construct && Construct->getNumArgs() == 1)
    Inner = ignoreTemporaries(Construct->getArg(0));
  const CXXRecordDecl *Class =
      Inner->getType().getNonReferenceType()->getAsCXXRecordDecl();
  if (!Class || !Class->isLambda() || Class->isGenericLambda())
    return nullptr;
  return Class->getLambdaCallOperator();
}

} // namespace clang::tidy::torch_tidy::utils
