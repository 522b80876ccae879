//===--- UnmovedInputCheck.cpp - device-unmoved-input ---------------------===//

#include "UnmovedInputCheck.h"

namespace clang::tidy::torch_tidy {

using flow::Conflict;

void UnmovedInputCheck::report(const flow::FunctionFacts &Facts,
                               ASTContext &Ctx) {
  for (const Conflict *C : conflictsOf(Facts, Conflict::UnmovedInput)) {
    recordConflictPlan(*C, C->Sink->getBeginLoc(), Ctx);
    {
      auto Diag =
          diag(C->Sink->getBeginLoc(),
               "%0 is on the CPU, but '%1' was moved to %2: its forward "
               "fails with 'Expected all tensors to be on the same device' "
               "(convolutions: 'Input type (CPUFloatType) and weight type "
               "(CUDAFloatType) should be the same')")
          << quoted(C->CpuOperand, Ctx, "the input") << C->Module->getName()
          << flow::describeDevice(C->Accelerator, Ctx)
          << C->CpuOperand->getSourceRange();
      if (auto Fix = moveTo(*C->CpuOperand, C->Accelerator.DeviceExpr, Ctx))
        Diag << *Fix;
    }
    if (C->RelatedMove)
      diag(C->RelatedMove->getBeginLoc(), "'%0' is moved to %1 here",
           DiagnosticIDs::Note)
          << C->Module->getName() << flow::describeDevice(C->Accelerator, Ctx);
    if (C->Cpu.Source && C->Cpu.From == flow::Origin::FactoryWithoutDevice)
      diag(C->Cpu.Source->getBeginLoc(),
           "the input is created here without a device", DiagnosticIDs::Note);
    noteCallChain(Facts, Ctx);
  }
}

} // namespace clang::tidy::torch_tidy
