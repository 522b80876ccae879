//===--- DeviceMismatchCheck.cpp - device-mismatch ------------------------===//

#include "DeviceMismatchCheck.h"
#include "FactoryWithoutDeviceCheck.h"
#include "UnmovedTargetCheck.h"

namespace clang::tidy::torch_tidy {

/// Meetings no rule of a more specific cause owns.
static bool ownsMismatch(const flow::Meeting &M) {
  return !FactoryWithoutDeviceCheck::owns(M) && !UnmovedTargetCheck::owns(M);
}

void DeviceMismatchCheck::report(const flow::FunctionFacts &Facts,
                                 ASTContext &Ctx) {
  for (const flow::Meeting *M : meetingsOwned(
           Facts, ownsMismatch,
           [](const flow::Meeting &M) -> const Expr * { return M.Sink; })) {
    const flow::Operand &Cpu = M->cpu(), &Accelerator = M->accelerator();
    recordMeetingPlan(*M, M->Sink->getBeginLoc(), Ctx);
    finding(M->Sink->getBeginLoc(),
         "%0 on the CPU meets %1 on %2 in %3: LibTorch throws 'Expected all "
         "tensors to be on the same device'")
        << quoted(Cpu.E, Ctx) << quoted(Accelerator.E, Ctx)
        << flow::describeDevice(Accelerator.Value, Ctx)
        << operationName(M->Sink) << Cpu.E->getSourceRange();
    if (Cpu.Value.Source)
      diag(Cpu.Value.Source->getBeginLoc(), "%0 is on the CPU since here",
           DiagnosticIDs::Note)
          << quoted(Cpu.E, Ctx);
    noteAcceleratorOrigin(Accelerator.Value, Ctx);
    noteCallChain(Facts, Ctx);
  }
}

} // namespace clang::tidy::torch_tidy
