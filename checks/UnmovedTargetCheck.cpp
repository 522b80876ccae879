//===--- UnmovedTargetCheck.cpp - device-unmoved-target -------------------===//

#include "UnmovedTargetCheck.h"

namespace clang::tidy::torch_tidy {

using flow::Conflict;

void UnmovedTargetCheck::report(const flow::FunctionFacts &Facts,
                                ASTContext &Ctx) {
  for (const Conflict *C : conflictsOf(Facts, Conflict::UnmovedTarget)) {
    recordConflictPlan(*C, C->Sink->getBeginLoc(), Ctx);
    {
      auto Diag = diag(C->Sink->getBeginLoc(),
                       "%0 from the data loader is still on the CPU where it "
                       "meets %1 on %2 in %3: LibTorch throws 'Expected all "
                       "tensors to be on the same device'")
                  << quoted(C->CpuOperand, Ctx, "the target")
                  << quoted(C->AcceleratorOperand, Ctx, "a tensor")
                  << flow::describeDevice(C->Accelerator, Ctx)
                  << operationName(C->Sink) << C->CpuOperand->getSourceRange();
      if (auto Fix = moveTo(*C->CpuOperand, C->Accelerator.DeviceExpr, Ctx))
        Diag << *Fix;
    }
    if (C->RelatedMove)
      diag(C->RelatedMove->getBeginLoc(),
           "the batch's input is moved to the device here, its target is not",
           DiagnosticIDs::Note);
    noteAcceleratorOrigin(C->Accelerator, Ctx);
    noteCallChain(Facts, Ctx);
  }
}

} // namespace clang::tidy::torch_tidy
