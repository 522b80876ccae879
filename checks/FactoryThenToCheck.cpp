//===--- FactoryThenToCheck.cpp - device-factory-then-to ------------------===//

#include "FactoryThenToCheck.h"
#include "api/FactoryOnDevice.h"
#include "api/StepLoops.h"
#include "api/TensorMethods.h"
#include "plans/LiteralSizes.h"
#include "plans/PerStepCopyPlan.h"
#include "plans/PlanRecorder.h"
#include "utils/AstHelpers.h"
#include "utils/LoopIterations.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::torch_tidy {

/// Where \p Move runs once per step: 0 on every iteration of a loop, 1 on
/// every call of a module's forward(); none elsewhere, under a condition
/// (every k-th step, the first epoch), or in a loop around the step loops
/// (once per epoch).
static std::optional<unsigned> perStep(const CXXMemberCallExpr &Move,
                                       ASTContext &Ctx) {
  if (const Stmt *Loop = utils::enclosingLoop(Move, Ctx))
    return utils::recurrence(Move, *Loop, Ctx) == utils::Recurrence::Every &&
                   !api::runsStepLoops(*Loop, Ctx)
               ? std::optional<unsigned>(0)
               : std::nullopt;
  const auto *Method =
      dyn_cast_or_null<CXXMethodDecl>(utils::enclosingFunction(Move, Ctx));
  if (Method && api::isForwardMethod(Method) && Method->getBody() &&
      utils::recurrence(Move, *Method->getBody(), Ctx) ==
          utils::Recurrence::Every)
    return 1;
  return std::nullopt;
}

void FactoryThenToCheck::report(const flow::FunctionFacts &Facts,
                                ASTContext &Ctx) {
  for (const Expr *E :
       nodesIn(Facts, api::toOrCudaCall().bind("node"), Ctx)) {
    const auto *Move = cast<CXXMemberCallExpr>(E);
    const CallExpr *Factory =
        api::factoryBeneathFills(*Move->getImplicitObjectArgument());
    if (!Factory || api::buildsFromHostData(*Factory))
      continue;
    // A leaf that requires grad is device-mid-graph-to's: there the copy
    // is no leaf, and creating it on the device changes more than speed.
    flow::TensorValue Created = Facts.deviceOf(*Factory);
    if (Created.From != flow::Origin::FactoryWithoutDevice ||
        Created.Source != Factory || Created.RequiresGradLeaf ||
        Facts.deviceOf(*Move).Device != flow::Place::Accelerator)
      continue;
    std::optional<unsigned> Where = perStep(*Move, Ctx);
    if (!Where || !Reported.insert(Move).second)
      continue;
    std::vector<FixItHint> Fix = api::createOnDevice(*Factory, *Move, Ctx);
    api::ValuesOnDevice Values = api::valuesOnDevice(*Factory, *Move);
    bool Exact = Values == api::ValuesOnDevice::Same;
    {
      auto Diag = finding(Factory->getBeginLoc(),
                          "tensor created on the CPU and copied to the device "
                          "by '%0' %select{on every iteration|on every call "
                          "of forward()}1: create it on the device, in the "
                          "factory's options (a performance problem)")
                  << Move->getMethodDecl()->getName() << *Where
                  << Move->getSourceRange();
      if (Exact)
        for (const FixItHint &Hint : Fix)
          Diag << Hint;
    }
    // The device's generator or kernels may give other values: an edit for
    // --fix-notes, not for --fix.
    if (!Exact && !Fix.empty()) {
      auto Note = diag(Factory->getBeginLoc(),
                       "created on the device, its values come from the "
                       "device's %select{random number generator, which draws "
                       "other numbers from the same seed|kernel, which may "
                       "round otherwise}0",
                       DiagnosticIDs::Note)
                  << (Values == api::ValuesOnDevice::OtherRandomNumbers ? 0 : 1);
      for (const FixItHint &Hint : Fix)
        Note << Hint;
    }
    if (auto Replayed = plans::replayedMove(*Move))
      plans::recordPlan(getID(), Factory->getBeginLoc(), Ctx.getSourceManager(),
                        plans::perStepCopyPlan(getID(), *Replayed,
                                               plans::literalSizes(Factory)));
    else
      plans::recordNotReplayable(getID(), Factory->getBeginLoc(),
                                 Ctx.getSourceManager());
    noteCallChain(Facts, Ctx);
  }
}

} // namespace clang::tidy::torch_tidy
