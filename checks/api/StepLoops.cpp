//===--- StepLoops.cpp - Which loops run training steps -------------------===//

#include "StepLoops.h"
#include "TorchApi.h"
#include "TrainingApi.h"
#include "utils/AstHelpers.h"
#include "utils/Execution.h"
#include "clang/AST/StmtCXX.h"

namespace clang::tidy::torch_tidy::api {

bool runsStepLoops(const Stmt &Root, ASTContext &Ctx) {
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
