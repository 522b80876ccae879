//===--- DeviceMismatchCheck.cpp - device-mismatch ------------------------===//

#include "DeviceMismatchCheck.h"

namespace clang::tidy::torch_tidy {

using flow::Conflict;

void DeviceMismatchCheck::report(const flow::FunctionFacts &Facts,
                                 ASTContext &Ctx) {
  for (const Conflict *C : conflictsOf(Facts, Conflict::Mismatch)) {
    recordConflictPlan(*C, C->Sink->getBeginLoc(), Ctx);
    diag(C->Sink->getBeginLoc(),
         "%0 on the CPU meets %1 on %2 in %3: LibTorch throws 'Expected all "
         "tensors to be on the same device'")
        << quoted(C->CpuOperand, Ctx) << quoted(C->AcceleratorOperand, Ctx)
        << flow::describeDevice(C->Accelerator, Ctx) << operationName(C->Sink)
        << C->CpuOperand->getSourceRange();
    if (C->Cpu.Source)
      diag(C->Cpu.Source->getBeginLoc(), "%0 is on the CPU since here",
           DiagnosticIDs::Note)
          << quoted(C->CpuOperand, Ctx);
    noteAcceleratorOrigin(C->Accelerator, Ctx);
    noteCallChain(Facts, Ctx);
  }
}

} // namespace clang::tidy::torch_tidy
