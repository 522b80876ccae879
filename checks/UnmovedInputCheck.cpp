//===--- UnmovedInputCheck.cpp - device-unmoved-input ---------------------===//

#include "UnmovedInputCheck.h"
#include "FactoryWithoutDeviceCheck.h"
#include "api/TorchApi.h"
#include "flow/ConflictPlan.h"
#include "plans/PlanRecorder.h"

namespace clang::tidy::torch_tidy {

void UnmovedInputCheck::report(const flow::FunctionFacts &Facts,
                               ASTContext &Ctx) {
  for (const flow::ForwardInput &F : Facts.ForwardInputs) {
    if (FactoryWithoutDeviceCheck::owns(Facts, F) || !Reported.insert(F.Call).second)
      continue;
    SourceLocation At = F.Call->getBeginLoc();
    if (auto Plan = flow::forwardInputPlan(F, getID(), "devices meet at 'forward'"))
      plans::recordPlan(getID(), At, Ctx.getSourceManager(), std::move(*Plan));
    else
      plans::recordNotReplayable(getID(), At, Ctx.getSourceManager());
    std::string Device = flow::describeDevice(F.ModuleDevice, Ctx);
    {
      auto Diag =
          finding(At, "%0 is on the CPU, but '%1' was moved to %2: its forward "
                   "fails with 'Expected all tensors to be on the same device' "
                   "(convolutions: 'Input type (CPUFloatType) and weight type "
                   "(CUDAFloatType) should be the same')")
          << quoted(F.Input.E, Ctx, "the input") << F.Module->getName()
          << Device << F.Input.E->getSourceRange();
      if (auto Fix = moveTo(*F.Input.E, F.ModuleDevice.DeviceExpr, Ctx))
        Diag << *Fix;
    }
    if (F.MovedAt) {
      // The owner's move, for a submodule it moved with it.
      const ValueDecl *Moved = F.Module;
      if (const auto *Move = dyn_cast<CXXMemberCallExpr>(F.MovedAt))
        if (const ValueDecl *Receiver =
                api::moduleReceiver(Move->getImplicitObjectArgument()))
          Moved = Receiver;
      diag(F.MovedAt->getBeginLoc(), "'%0' is moved to %1 here",
           DiagnosticIDs::Note)
          << Moved->getName() << Device;
    }
    if (F.Input.Value.Source &&
        F.Input.Value.From == flow::Origin::FactoryWithoutDevice)
      diag(F.Input.Value.Source->getBeginLoc(),
           "the input is created here without a device", DiagnosticIDs::Note);
    noteCallChain(Facts, Ctx);
  }
}

} // namespace clang::tidy::torch_tidy
