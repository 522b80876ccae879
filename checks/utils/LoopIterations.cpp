//===--- LoopIterations.cpp - How often a statement runs in a loop --------===//

#include "LoopIterations.h"
#include "AstHelpers.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include <algorithm>

namespace clang::tidy::torch_tidy::utils {

bool isRepeatedPart(const Stmt &Loop, const Stmt &Part) {
  if (const auto *For = dyn_cast<ForStmt>(&Loop))
    return &Part == For->getBody() || &Part == For->getCond() ||
           &Part == For->getInc() ||
           &Part == For->getConditionVariableDeclStmt();
  if (const auto *While = dyn_cast<WhileStmt>(&Loop))
    return &Part == While->getBody() || &Part == While->getCond() ||
           &Part == While->getConditionVariableDeclStmt();
  if (const auto *Do = dyn_cast<DoStmt>(&Loop))
    return &Part == Do->getBody() || &Part == Do->getCond();
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(&Loop))
    return &Part == Range->getBody() || &Part == Range->getLoopVarStmt() ||
           &Part == Range->getCond() || &Part == Range->getInc();
  return false;
}

static bool isLoop(const Stmt &S) {
  return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}

const Stmt *enclosingLoop(const Stmt &S, ASTContext &Ctx) {
  DynTypedNode Node = DynTypedNode::create(S);
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty() || Parents[0].get<FunctionDecl>() ||
        Parents[0].get<LambdaExpr>())
      return nullptr;
    const Stmt *Parent = Parents[0].get<Stmt>();
    const Stmt *Child = Node.get<Stmt>();
    if (Parent && Child && isLoop(*Parent) && isRepeatedPart(*Parent, *Child))
      return Parent;
    Node = Parents[0];
  }
}

bool isPeriodicCondition(const Expr &Condition) {
  llvm::SmallVector<const Stmt *, 16> Work = {&Condition};
  while (!Work.empty()) {
    const Stmt *Current = Work.pop_back_val();
    if (!Current || isa<LambdaExpr>(Current))
      continue;
    if (const auto *Binary = dyn_cast<BinaryOperator>(Current);
        Binary && Binary->getOpcode() == BO_Rem)
      return true;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Current);
        Op && Op->getOperator() == OO_Percent)
      return true;
    llvm::append_range(Work, Current->children());
  }
  return false;
}

namespace {

/// Whether a loop can change the value of a condition: it reads a variable
/// the loop declares or modifies, a field, or calls anything but const
/// methods and operators.
class InvarianceTest {
public:
  InvarianceTest(const Stmt &Loop, ASTContext &Ctx)
      : Loop(Loop), Mutations(Loop, Ctx) {}

  bool isInvariant(const Stmt &S) {
    if (const auto *Ref = dyn_cast<DeclRefExpr>(&S)) {
      if (isa<EnumConstantDecl>(Ref->getDecl()))
        return true;
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      return Var &&
             !Loop.getSourceRange().fullyContains(Var->getSourceRange()) &&
             !Mutations.isMutated(Var);
    }
    if (const auto *Member = dyn_cast<MemberExpr>(&S)) {
      if (isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()))
        return false;
      return isInvariant(*Member->getBase());
    }
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(&S)) {
      const CXXMethodDecl *Method = Call->getMethodDecl();
      if (!Method || !Method->isConst())
        return false;
      return allInvariant(S);
    }
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&S)) {
      if (Op->isAssignmentOp() || Op->getOperator() == OO_PlusPlus ||
          Op->getOperator() == OO_MinusMinus)
        return false;
      // The callee is named by a DeclRefExpr child: skip it.
      for (unsigned I = 0; I < Op->getNumArgs(); ++I)
        if (!isInvariant(*Op->getArg(I)))
          return false;
      return true;
    }
    if (const auto *Unary = dyn_cast<UnaryOperator>(&S))
      if (Unary->isIncrementDecrementOp())
        return false;
    if (const auto *Binary = dyn_cast<BinaryOperator>(&S))
      if (Binary->isAssignmentOp())
        return false;
    if (isa<CallExpr, LambdaExpr, CXXNewExpr, CXXDeleteExpr, CXXThrowExpr,
            StmtExpr>(S))
      return false;
    return allInvariant(S);
  }

private:
  bool allInvariant(const Stmt &S) {
    for (const Stmt *Child : S.children())
      if (Child && !isInvariant(*Child))
        return false;
    return true;
  }

  const Stmt &Loop;
  ExprMutationAnalyzer Mutations;
};

Recurrence atLeast(Recurrence A, Recurrence B) { return std::max(A, B); }

} // namespace

/// How often a branch guarded by \p Condition runs per run of \p Region.
static Recurrence guardedBy(const Expr &Condition, const Stmt &Region,
                            ASTContext &Ctx) {
  if (isPeriodicCondition(Condition))
    return Recurrence::Periodic;
  if (isLoop(Region) && InvarianceTest(Region, Ctx).isInvariant(Condition))
    return Recurrence::Every;
  return Recurrence::Some;
}

Recurrence recurrence(const Stmt &S, const Stmt &Region, ASTContext &Ctx) {
  Recurrence Result = Recurrence::Every;
  DynTypedNode Node = DynTypedNode::create(S);
  while (true) {
    DynTypedNodeList Parents = Ctx.getParents(Node);
    if (Parents.empty() || Parents[0].get<FunctionDecl>() ||
        Parents[0].get<LambdaExpr>())
      return Recurrence::Some; // Region does not contain S
    const Stmt *Parent = Parents[0].get<Stmt>();
    const Stmt *Child = Node.get<Stmt>();
    Node = Parents[0];
    if (Parent == &Region)
      return Result;
    if (!Parent || !Child)
      continue;
    if (const auto *If = dyn_cast<IfStmt>(Parent)) {
      if ((Child == If->getThen() || Child == If->getElse()) &&
          !If->isConstexpr())
        Result = atLeast(Result, guardedBy(*If->getCond(), Region, Ctx));
    } else if (const auto *Choice =
                   dyn_cast<AbstractConditionalOperator>(Parent)) {
      if (Child != Choice->getCond())
        Result = atLeast(Result, guardedBy(*Choice->getCond(), Region, Ctx));
    } else if (const auto *Logic = dyn_cast<BinaryOperator>(Parent)) {
      if (Logic->isLogicalOp() && Child == Logic->getRHS())
        Result = atLeast(Result, guardedBy(*Logic->getLHS(), Region, Ctx));
    } else if (const auto *Switch = dyn_cast<SwitchStmt>(Parent)) {
      if (Child == Switch->getBody())
        Result = atLeast(Result, guardedBy(*Switch->getCond(), Region, Ctx));
    } else if (isa<CXXCatchStmt>(Parent) ||
               (isLoop(*Parent) && isRepeatedPart(*Parent, *Child))) {
      Result = Recurrence::Some;
    }
  }
}

std::vector<LoopContext> loopsRunning(const Stmt &S, const CallSites &Calls,
                                      ASTContext &Ctx, unsigned Depth) {
  if (const Stmt *Loop = enclosingLoop(S, Ctx))
    return {{Loop, {}, recurrence(S, *Loop, Ctx)}};
  const FunctionDecl *Fn = enclosingFunction(S, Ctx);
  const Stmt *Body = Fn ? Fn->getBody() : nullptr;
  if (!Body || Depth == 0)
    return {};
  Recurrence InFunction = recurrence(S, *Body, Ctx);
  std::vector<LoopContext> Loops;
  for (const CallExpr *Call : Calls.of(*Fn))
    for (LoopContext Outer : loopsRunning(*Call, Calls, Ctx, Depth - 1)) {
      Outer.Chain.push_back(Call);
      Outer.Runs = atLeast(Outer.Runs, InFunction);
      Loops.push_back(std::move(Outer));
    }
  return Loops;
}

} // namespace clang::tidy::torch_tidy::utils
