//===--- StepLoops.cpp - Which loops run training steps -------------------===//

#include "StepLoops.h"
#include "TorchApi.h"
#include "TrainingApi.h"
#include "utils/AstHelpers.h"
#include "utils/Execution.h"
#include "utils/LoopIterations.h"
#include "clang/AST/StmtCXX.h"

namespace clang::tidy::torch_tidy::api {

/// Whether an iteration of \p Loop runs a training step itself, outside its
/// inner loops (a backward, an optimizer step): a loop of steps, whatever its
/// inner loops do (an RL rollout before each update).
static bool trainsItself(const Stmt &Loop, ASTContext &Ctx) {
  return !utils::forEachExecuted(Loop, Ctx, [&](const Stmt &S,
                                                utils::CallChain Chain) {
    const auto *Call = dyn_cast<CallExpr>(&S);
    const auto *Member = dyn_cast_or_null<CXXMemberCallExpr>(Call);
    if (!Call || !(isBackward(*Call) ||
                   (Member && isOptimizerStep(*Member))))
      return true;
    // In the loop's own iteration: not in an inner loop, neither here nor
    // in the functions it calls (a train_epoch() per epoch).
    bool Outside =
        utils::enclosingLoop(Chain.empty() ? S : *Chain.front(), Ctx) == &Loop;
    if (!Chain.empty()) {
      Outside &= !utils::enclosingLoop(S, Ctx);
      for (const CallExpr *Inner : llvm::drop_begin(Chain))
        Outside &= !utils::enclosingLoop(*Inner, Ctx);
    }
    return !Outside;
  });
}

bool runsStepLoops(const Stmt &Root, ASTContext &Ctx) {
  if (trainsItself(Root, Ctx))
    return false;
  return !utils::forEachExecuted(Root, Ctx, [&](const Stmt &S, utils::CallChain) {
    if (!isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S) || &S == &Root)
      return true;
    const auto *Method =
        dyn_cast_or_null<CXXMethodDecl>(utils::enclosingFunction(S, Ctx));
    if (Method && isModuleClass(Method->getParent()))
      return true;
    return utils::forEachExecuted(S, Ctx, [](const Stmt &Inner, utils::CallChain) {
      const auto *Call = dyn_cast<CallExpr>(&Inner);
      return !Call || !isModelStep(*Call);
    });
  });
}

} // namespace clang::tidy::torch_tidy::api
