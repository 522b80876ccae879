//===--- DiscardedToCheck.cpp - device-discarded-to -----------------------===//

#include "DiscardedToCheck.h"
#include "api/TorchApi.h"
#include "plans/PlanBuilder.h"
#include "plans/PlanRecorder.h"
#include "plans/ReplayedOperation.h"
#include "utils/AstHelpers.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::torch_tidy {

void DiscardedToCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(api::conversionCall().bind("call"), this);
}

/// `x = ` can be put before the call when `x` is a name that may be assigned.
static bool canAssignTo(const ValueDecl &Object) {
  QualType Type = Object.getType();
  if (Type->isReferenceType())
    Type = Type->getPointeeType();
  return !Type.isConstQualified();
}

/// A tensor, the discarded move, and the tensor still where it was.
static nlohmann::json discardedPlan(llvm::StringRef Check,
                                    const plans::ReplayedMove &Move) {
  plans::PlanBuilder Plan;
  std::string Origin = Move.Target == "cpu" ? "accel" : "cpu";
  std::string X = Plan.factory({Origin});
  Plan.move(X, Move.Fn, Move.Target, /*Keep=*/false);
  Plan.expect({{"kind", "device-after"},
               {"step", Plan.lastStep()},
               {"value", X},
               {"device", Origin}});
  return Plan.finish(Check, "a discarded '" + Move.Fn +
                                "' leaves its tensor where it was");
}

void DiscardedToCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Call = Result.Nodes.getNodeAs<CXXMemberCallExpr>("call");
  ASTContext &Ctx = *Result.Context;
  if (Call->getBeginLoc().isMacroID() || !utils::isDiscardedResult(*Call, Ctx))
    return;

  const Expr *ObjectExpr = Call->getImplicitObjectArgument();
  const ValueDecl *Object = utils::namedObject(*ObjectExpr);
  std::optional<std::string> ObjectText = utils::sourceText(*ObjectExpr, Ctx);
  llvm::StringRef Method = Call->getMethodDecl()->getName();

  {
    auto Diag = diag(Call->getBeginLoc(),
                     "result of '%0' is discarded: it returns a new tensor and "
                     "leaves %1 unchanged, on its current device")
                << Method
                << (ObjectText ? "'" + *ObjectText + "'" : "its object")
                << Call->getSourceRange();
    if (Object && ObjectText && canAssignTo(*Object))
      Diag << FixItHint::CreateInsertion(Call->getBeginLoc(),
                                         *ObjectText + " = ");
  }

  if (auto Move = plans::replayedMove(*Call))
    plans::recordPlan(getID(), Call->getBeginLoc(), *Result.SourceManager,
                      discardedPlan(getID(), *Move));
  else
    plans::recordNotReplayable(getID(), Call->getBeginLoc(),
                               *Result.SourceManager);

  if (!Object || !ObjectText)
    return;
  const Stmt *Body = utils::enclosingFunctionBody(*Call, Ctx);
  if (!Body)
    return;
  const Expr *Use = utils::firstReferenceAfter(*Object, *Body, *Call, Ctx);
  if (!Use)
    return;
  // Run after the call but written before it: on the loop's next pass.
  bool NextPass = Ctx.getSourceManager().isBeforeInTranslationUnit(
      Use->getBeginLoc(), Call->getBeginLoc());
  diag(Use->getBeginLoc(), "'%0' is used here%select{| on the loop's next "
                           "pass}2, still where it was before the discarded "
                           "'%1'",
       DiagnosticIDs::Note)
      << *ObjectText << Method << NextPass << Use->getSourceRange();
}

} // namespace clang::tidy::torch_tidy
