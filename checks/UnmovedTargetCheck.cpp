//===--- UnmovedTargetCheck.cpp - device-unmoved-target -------------------===//

#include "UnmovedTargetCheck.h"
#include "api/TensorMethods.h"
#include "utils/AstHelpers.h"
#include "clang/AST/ExprCXX.h"

using namespace clang::ast_matchers;

namespace clang::tidy::torch_tidy {

bool UnmovedTargetCheck::owns(const flow::Meeting &M) {
  return M.cpu().Value.From == flow::Origin::DataBatch &&
         (M.Op == api::OpKind::Loss || api::isComparison(M.Sink->getDirectCallee()));
}

/// The first move of a batch field in the function: the input's.
static const Expr *firstBatchMove(const flow::FunctionFacts &Facts,
                                  ASTContext &Ctx) {
  for (const Expr *E : flow::FlowCheck::nodesIn(
           Facts, cxxMemberCallExpr(api::conversionCall()).bind("node"), Ctx)) {
    const auto *Move = cast<CXXMemberCallExpr>(E);
    if (const auto *Field = dyn_cast<MemberExpr>(
            utils::ignoreTemporaries(Move->getImplicitObjectArgument())))
      if (api::isDataExample(
              utils::ignoreTemporaries(Field->getBase())->getType()) &&
          Move->getMethodDecl()->getName() != "cpu")
        return Move;
  }
  return nullptr;
}

void UnmovedTargetCheck::report(const flow::FunctionFacts &Facts,
                                ASTContext &Ctx) {
  for (const flow::Meeting *M : meetingsOwned(
           Facts, owns, [](const flow::Meeting &M) -> const Expr * { return M.Sink; })) {
    const flow::Operand &Target = M->cpu(), &Output = M->accelerator();
    recordMeetingPlan(*M, M->Sink->getBeginLoc(), Ctx);
    {
      auto Diag = finding(M->Sink->getBeginLoc(),
                       "%0 from the data loader is still on the CPU where it "
                       "meets %1 on %2 in %3: LibTorch throws 'Expected all "
                       "tensors to be on the same device'")
                  << quoted(Target.E, Ctx, "the target")
                  << quoted(Output.E, Ctx, "a tensor")
                  << flow::describeDevice(Output.Value, Ctx)
                  << operationName(M->Sink) << Target.E->getSourceRange();
      if (auto Fix = moveTo(*Target.E, Output.Value.DeviceExpr, Ctx))
        Diag << *Fix;
    }
    if (const Expr *InputMove = firstBatchMove(Facts, Ctx))
      diag(InputMove->getBeginLoc(),
           "the batch's input is moved to the device here, its target is not",
           DiagnosticIDs::Note);
    noteAcceleratorOrigin(Output.Value, Ctx);
    noteCallChain(Facts, Ctx);
  }
}

} // namespace clang::tidy::torch_tidy
