//===--- LoopCopyToCheck.cpp - device-loop-copy-to ------------------------===//

#include "LoopCopyToCheck.h"
#include "api/TorchApi.h"
#include "plans/PlanBuilder.h"
#include "plans/PlanRecorder.h"
#include "plans/ReplayedOperation.h"
#include "utils/AstHelpers.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::torch_tidy {

void LoopCopyToCheck::registerMatchers(MatchFinder *Finder) {
  // A tensor, or a map entry `std::pair<const K, Tensor>` whose `second`
  // is moved.
  auto TensorPair = qualType(hasUnqualifiedDesugaredType(
      recordType(hasDeclaration(classTemplateSpecializationDecl(
          hasName("::std::pair"),
          hasTemplateArgument(1, refersToType(api::tensorType())))))));
  auto LoopVar = varDecl(hasType(qualType(unless(referenceType()),
                                          anyOf(api::tensorType(), TensorPair))))
                     .bind("var");
  auto RefersToVar = declRefExpr(to(varDecl(equalsBoundNode("var"))));
  auto Element = ignoringParenImpCasts(expr(anyOf(
      RefersToVar, memberExpr(member(hasName("second")),
                              hasObjectExpression(RefersToVar)))));
  auto MoveOfVar = ignoringImplicit(
      cxxMemberCallExpr(callee(api::conversionMethod()), on(Element))
          .bind("move"));
  auto Reassignment = cxxOperatorCallExpr(hasOverloadedOperatorName("="),
                                          hasArgument(0, Element),
                                          hasArgument(1, MoveOfVar))
                          .bind("assign");
  Finder->addMatcher(cxxForRangeStmt(hasLoopVariable(LoopVar),
                                     hasBody(hasDescendant(Reassignment)))
                         .bind("loop"),
                     this);
}

/// `auto &t` keeps the assignment compiling only when the element is a
/// non-const lvalue of the container.
static bool elementIsMutableLvalue(const CXXForRangeStmt &Loop) {
  const auto *Init = Loop.getLoopVariable()->getInit();
  if (!Init)
    return false;
  const Expr *Element = Init->IgnoreImplicit();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Element))
    if (Construct->getNumArgs() == 1)
      Element = Construct->getArg(0)->IgnoreImplicit();
  return Element->isLValue() && !Element->getType().isConstQualified();
}

/// The element, its moved copy, and the element still where it was.
static nlohmann::json loopCopyPlan(llvm::StringRef Check,
                                   const plans::ReplayedMove &Move) {
  plans::PlanBuilder Plan;
  std::string Origin = Move.Target == "cpu" ? "accel" : "cpu";
  std::string Element = Plan.factory({Origin});
  Plan.move(Element, Move.Fn, Move.Target, /*Keep=*/true);
  Plan.expect({{"kind", "device-after"},
               {"step", Plan.lastStep()},
               {"value", Element},
               {"device", Origin}});
  return Plan.finish(Check, "moving a copy leaves the element where it was");
}

void LoopCopyToCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Loop = Result.Nodes.getNodeAs<CXXForRangeStmt>("loop");
  const auto *Var = Result.Nodes.getNodeAs<VarDecl>("var");
  const auto *Assign = Result.Nodes.getNodeAs<Expr>("assign");
  ASTContext &Ctx = *Result.Context;
  if (Assign->getBeginLoc().isMacroID())
    return;
  // A copy that is read after the move is a deliberate local, not a bug.
  if (utils::firstReferenceAfter(*Var, *Loop->getBody(), *Assign,
                                 Ctx))
    return;

  {
    auto Diag = diag(Assign->getBeginLoc(),
                     "'%0' is a copy of the container's element: assigning "
                     "the moved tensor to it leaves the container unchanged")
                << Var->getName() << Assign->getSourceRange();
    if (elementIsMutableLvalue(*Loop) && !Var->getLocation().isMacroID())
      Diag << FixItHint::CreateInsertion(Var->getLocation(), "&");
  }
  if (auto Move = plans::replayedMove(
          *Result.Nodes.getNodeAs<CXXMemberCallExpr>("move")))
    plans::recordPlan(getID(), Assign->getBeginLoc(), *Result.SourceManager,
                      loopCopyPlan(getID(), *Move));
  else
    plans::recordNotReplayable(getID(), Assign->getBeginLoc(),
                               *Result.SourceManager);
  diag(Var->getLocation(), "'%0' is declared here as a copy; declare it as "
                           "a reference to update the element itself",
       DiagnosticIDs::Note)
      << Var->getName();
}

} // namespace clang::tidy::torch_tidy
