//===--- DeviceMismatchCheck.cpp - device-mismatch ------------------------===//

#include "DeviceMismatchCheck.h"
#include "FactoryWithoutDeviceCheck.h"
#include "UnmovedTargetCheck.h"

namespace clang::tidy::torch_tidy {

/// Meetings no rule of a more specific cause owns.
static bool ownsMismatch(const flow::Meeting &M) {
  return !FactoryWithoutDeviceCheck::owns(M) && !UnmovedTargetCheck::owns(M);
}

/// Whether the CPU operand of \p M is a tensor whose cause a rule of a more
/// specific cause reports where it meets the device elsewhere in the
/// function (`valid = gold.ne(pad)` after `pred.eq(gold)`): one root cause,
/// met again once the operation it first met is where the fix goes.
static bool metBefore(const flow::FunctionFacts &Facts, const flow::Meeting &M) {
  const Expr *Cause = M.cpu().Value.Source;
  return Cause && llvm::any_of(Facts.Meetings, [&](const flow::Meeting &Other) {
           return &Other != &M && !ownsMismatch(Other) &&
                  Other.cpu().Value.Source == Cause;
         });
}

void DeviceMismatchCheck::report(const flow::FunctionFacts &Facts,
                                 ASTContext &Ctx) {
  for (const flow::Meeting *M : meetingsOwned(
           Facts,
           [&](const flow::Meeting &M) {
             return ownsMismatch(M) && !metBefore(Facts, M);
           },
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
