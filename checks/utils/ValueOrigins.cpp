//===--- ValueOrigins.cpp - Where a variable's value comes from -----------===//

#include "ValueOrigins.h"
#include "AstHelpers.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"

namespace clang::tidy::torch_tidy::utils {

using namespace ast_matchers;
using Origins = std::optional<std::vector<const Expr *>>;

ValueOrigins::ValueOrigins(ASTContext &Ctx, const CallSites &Calls)
    : Ctx(Ctx), Calls(Calls) {}

/// The right-hand side of `x = v` when \p Target is `x`.
static const Expr *assignedBy(const Expr &Target, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(Target);
  while (!Parents.empty() &&
         (Parents[0].get<ImplicitCastExpr>() || Parents[0].get<ParenExpr>()))
    Parents = Ctx.getParents(Parents[0]);
  if (Parents.empty())
    return nullptr;
  if (const auto *Op = Parents[0].get<CXXOperatorCallExpr>())
    if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2 &&
        Op->getArg(0)->IgnoreParenImpCasts() == &Target)
      return Op->getArg(1);
  if (const auto *Op = Parents[0].get<BinaryOperator>())
    if (Op->getOpcode() == BO_Assign &&
        Op->getLHS()->IgnoreParenImpCasts() == &Target)
      return Op->getRHS();
  return nullptr;
}

/// The values assigned to \p Var in \p Body; nothing when \p Body modifies it
/// another way.
static Origins assignmentsIn(const VarDecl &Var, const Stmt &Body,
                             ASTContext &Ctx) {
  std::vector<const Expr *> Values;
  ExprMutationAnalyzer Mutations(Body, Ctx);
  for (const BoundNodes &Found :
       match(findAll(declRefExpr(to(varDecl(equalsNode(&Var)))).bind("ref")),
             Body, Ctx)) {
    const auto *Ref = Found.getNodeAs<DeclRefExpr>("ref");
    if (const Expr *Value = assignedBy(*Ref, Ctx))
      Values.push_back(Value);
    else if (Mutations.isMutated(Ref))
      return std::nullopt;
  }
  return Values;
}

/// Whether \p Init only default-constructs: `std::string s;`.
static bool isDefaultConstruction(const Expr *Init) {
  const auto *Construct =
      dyn_cast_or_null<CXXConstructExpr>(Init ? Init->IgnoreImplicit() : nullptr);
  return Construct && Construct->getNumArgs() == 0;
}

Origins ValueOrigins::ofLocal(const VarDecl &Var) {
  const auto *Fn = dyn_cast<FunctionDecl>(Var.getDeclContext());
  const Stmt *Body = Fn ? Fn->getBody() : nullptr;
  if (!Body)
    return std::nullopt;
  Origins Values = assignmentsIn(Var, *Body, Ctx);
  if (Values && Var.getInit() && !isDefaultConstruction(Var.getInit()))
    Values->push_back(Var.getInit());
  return Values;
}

Origins ValueOrigins::ofParameter(const ParmVarDecl &Param) {
  const auto *Fn = dyn_cast<FunctionDecl>(Param.getDeclContext());
  const Stmt *Body = Fn ? Fn->getBody() : nullptr;
  if (!Body || Calls.of(*Fn).empty())
    return std::nullopt;
  Origins Values = assignmentsIn(Param, *Body, Ctx);
  if (!Values)
    return std::nullopt;
  const auto *Method = dyn_cast<CXXMethodDecl>(Fn);
  for (const CallExpr *Call : Calls.of(*Fn)) {
    // A member operator's call passes the object as its first argument.
    unsigned Index = Param.getFunctionScopeIndex() +
                     (isa<CXXOperatorCallExpr>(Call) && Method &&
                      Method->isInstance());
    if (Index >= Call->getNumArgs())
      return std::nullopt;
    const Expr *Arg = Call->getArg(Index);
    if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(Arg))
      Arg = Default->getExpr();
    Values->push_back(Arg);
  }
  return Values;
}

Origins ValueOrigins::ofCall(const CallExpr &Call) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  const FunctionDecl *Definition = nullptr;
  if (!Callee || !Callee->hasBody(Definition))
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  if (!SM.isInMainFile(SM.getExpansionLoc(Definition->getLocation())))
    return std::nullopt;
  std::vector<const Expr *> Values;
  for (const BoundNodes &Found :
       match(findAll(returnStmt(hasReturnValue(expr().bind("value")))
                         .bind("return")),
             *Definition->getBody(), Ctx)) {
    const auto *Return = Found.getNodeAs<ReturnStmt>("return");
    if (enclosingFunction(*Return, Ctx) == Definition)
      Values.push_back(Found.getNodeAs<Expr>("value"));
  }
  if (Values.empty())
    return std::nullopt;
  return Values;
}

namespace {

/// Every write to the fields of the records of the main file.
class FieldWriteIndexer : public RecursiveASTVisitor<FieldWriteIndexer> {
public:
  explicit FieldWriteIndexer(
      llvm::DenseMap<const FieldDecl *, Origins> &Writes)
      : Writes(Writes) {}

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
    if (Op->getNumArgs() == 2 && Op->isAssignmentOp())
      write(Op->getArg(0), Op->getOperator() == OO_Equal ? Op->getArg(1)
                                                          : nullptr);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *Op) {
    if (Op->isAssignmentOp())
      write(Op->getLHS(), Op->getOpcode() == BO_Assign ? Op->getRHS() : nullptr);
    return true;
  }
  bool VisitCXXConstructorDecl(CXXConstructorDecl *Ctor) {
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (Init->isWritten() && Init->getMember())
        add(Init->getMember(), Init->getInit());
    return true;
  }
  bool VisitFieldDecl(FieldDecl *Field) {
    if (Field->hasInClassInitializer() && Field->getInClassInitializer())
      add(Field, Field->getInClassInitializer());
    return true;
  }
  bool VisitInitListExpr(InitListExpr *List) {
    if (!List->isSemanticForm())
      List = List->getSemanticForm();
    const auto *Record =
        List ? List->getType()->getAsCXXRecordDecl() : nullptr;
    if (!Record || Record->isUnion() ||
        Record->getNumBases() != 0 || !Seen.insert(List).second)
      return true;
    unsigned I = 0;
    for (const FieldDecl *Field : Record->fields()) {
      if (I >= List->getNumInits())
        break;
      const Expr *Init = List->getInit(I++);
      if (!isa<ImplicitValueInitExpr>(Init) && !isDefaultConstruction(Init))
        add(Field, Init);
    }
    return true;
  }

private:
  void write(const Expr *Target, const Expr *Value) {
    const auto *Member = dyn_cast<MemberExpr>(Target->IgnoreParenImpCasts());
    const auto *Field =
        Member ? dyn_cast<FieldDecl>(Member->getMemberDecl()) : nullptr;
    if (!Field)
      return;
    if (!Value)
      Writes[Field] = std::nullopt; // `+=` and the like: not one value
    else
      add(Field, Value);
  }
  void add(const FieldDecl *Field, const Expr *Value) {
    auto [It, New] = Writes.try_emplace(Field, std::vector<const Expr *>());
    if (It->second)
      It->second->push_back(Value);
  }

  llvm::DenseMap<const FieldDecl *, Origins> &Writes;
  llvm::DenseSet<const InitListExpr *> Seen;
};

} // namespace

void ValueOrigins::indexFieldWrites() {
  FieldsIndexed = true;
  const SourceManager &SM = Ctx.getSourceManager();
  FieldWriteIndexer Indexer(FieldWrites);
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
      Indexer.TraverseDecl(D);
}

Origins ValueOrigins::ofField(const FieldDecl &Field) {
  if (!FieldsIndexed)
    indexFieldWrites();
  auto It = FieldWrites.find(&Field);
  if (It == FieldWrites.end() || !It->second || It->second->empty())
    return std::nullopt;
  return It->second;
}

Origins ValueOrigins::of(const ValueDecl &D) {
  if (const auto *Param = dyn_cast<ParmVarDecl>(&D))
    return ofParameter(*Param);
  if (const auto *Var = dyn_cast<VarDecl>(&D); Var && Var->hasLocalStorage())
    return ofLocal(*Var);
  if (const auto *Field = dyn_cast<FieldDecl>(&D))
    return ofField(*Field);
  return std::nullopt;
}

Origins ValueOrigins::of(const Expr &E) {
  const Expr *Bare = ignoreTemporaries(&E);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Bare))
    return of(*Ref->getDecl());
  if (const auto *Member = dyn_cast<MemberExpr>(Bare))
    return of(*Member->getMemberDecl());
  if (const auto *Call = dyn_cast<CallExpr>(Bare))
    return ofCall(*Call);
  return std::nullopt;
}

} // namespace clang::tidy::torch_tidy::utils
