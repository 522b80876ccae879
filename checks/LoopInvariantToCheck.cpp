//===--- LoopInvariantToCheck.cpp - device-loop-invariant-to --------------===//

#include "LoopInvariantToCheck.h"
#include "api/Optimizers.h"
#include "api/TensorMethods.h"
#include "api/TorchApi.h"
#include "flow/TranslationUnitAnalysis.h"
#include "plans/LiteralSizes.h"
#include "plans/PerStepCopyPlan.h"
#include "plans/PlanRecorder.h"
#include "plans/ReplayedOperation.h"
#include "utils/AstHelpers.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"

using namespace clang::ast_matchers;

namespace clang::tidy::torch_tidy {

void LoopInvariantToCheck::registerMatchers(MatchFinder *Finder) {
  auto Loop = stmt(anyOf(forStmt(), whileStmt(), doStmt(), cxxForRangeStmt()));
  Finder->addMatcher(
      cxxMemberCallExpr(
          api::toOrCudaCall(),
          on(ignoringParenImpCasts(
              declRefExpr(to(varDecl(hasLocalStorage()).bind("var"))))),
          hasAncestor(Loop.bind("loop")), unless(isExpansionInSystemHeader()))
          .bind("move"),
      this);
}

void LoopInvariantToCheck::onStartOfTranslationUnit() {
  Reported.clear();
  flow::TranslationUnitAnalysis::reset();
}

/// Whether \p Var may change inside \p Loop: assigned, passed by non-const
/// reference, or changed in place (`add_`, `+=`).
static bool changesIn(const VarDecl &Var, const Stmt &Loop, ASTContext &Ctx) {
  if (ExprMutationAnalyzer(Loop, Ctx).isMutated(&Var))
    return true;
  auto InPlace = match(
      findAll(cxxMemberCallExpr(on(ignoringParenImpCasts(
                                    declRefExpr(to(equalsNode(&Var))))))
                  .bind("call")),
      Loop, Ctx);
  return llvm::any_of(InPlace, [](const BoundNodes &Node) {
    return api::isInPlaceMethod(
        Node.getNodeAs<CXXMemberCallExpr>("call")->getMethodDecl());
  }) || !match(findAll(cxxOperatorCallExpr(
                           isAssignmentOperator(),
                           hasArgument(0, ignoringParenImpCasts(declRefExpr(
                                              to(equalsNode(&Var))))))
                           .bind("op")),
               Loop, Ctx)
              .empty();
}

void LoopInvariantToCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Move = Result.Nodes.getNodeAs<CXXMemberCallExpr>("move");
  const auto *Var = Result.Nodes.getNodeAs<VarDecl>("var");
  const auto *Loop = Result.Nodes.getNodeAs<Stmt>("loop");
  ASTContext &Ctx = *Result.Context;
  if (Move->getBeginLoc().isMacroID() ||
      !flow::TranslationUnitAnalysis::of(Ctx).namesAccelerator() ||
      Loop->getSourceRange().fullyContains(Var->getSourceRange()) ||
      !api::isTensorType(Var->getType()) || utils::containsErrors(*Loop))
    return;
  bool MovesDevice =
      api::tensorMoveOf(Move->getMethodDecl()) == api::TensorMove::Cuda;
  for (const Expr *Arg : Move->arguments())
    MovesDevice |= !isa<CXXDefaultArgExpr>(Arg) &&
                   (api::namesADevice(Arg->getType()) ||
                    api::isTensorOptionsType(Arg->getType()));
  // A copy on some iterations only (every N steps, for logging) is not a
  // copy per step.
  if (!MovesDevice || utils::isUnderConditionWithin(*Move, Loop, Ctx))
    return;
  // An optimizer given the tensor updates it in place at every step().
  const Stmt *Body = utils::enclosingFunctionBody(*Move, Ctx);
  if (!Body || api::optimizerGiven(*Var, *Body, Ctx) ||
      changesIn(*Var, *Loop, Ctx) || !Reported.insert(Move).second)
    return;
  diag(Move->getBeginLoc(),
       "'%0' does not change inside the loop, yet '%1' copies it on every "
       "iteration: a needless copy between devices per step (a performance "
       "problem); move it once before the loop")
      << Var->getName() << Move->getMethodDecl()->getName()
      << Move->getSourceRange();
  const Expr *Init = Var->getInit() ? Var->getInit()->IgnoreImplicit() : nullptr;
  if (auto Replayed = plans::replayedMove(*Move))
    plans::recordPlan(
        getID(), Move->getBeginLoc(), Ctx.getSourceManager(),
        plans::perStepCopyPlan(getID(), *Replayed, plans::literalSizes(Init)));
  else
    plans::recordNotReplayable(getID(), Move->getBeginLoc(),
                               Ctx.getSourceManager());
  diag(Var->getLocation(), "'%0' is declared here, outside the loop",
       DiagnosticIDs::Note)
      << Var->getName();
}

} // namespace clang::tidy::torch_tidy
