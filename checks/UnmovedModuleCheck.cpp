//===--- UnmovedModuleCheck.cpp - device-unmoved-module -------------------===//

#include "UnmovedModuleCheck.h"
#include "flow/ModuleInSight.h"

namespace clang::tidy::torch_tidy {

void UnmovedModuleCheck::report(const flow::FunctionFacts &Facts,
                                ASTContext &Ctx) {
  for (const flow::ForwardOnCpu &F : Facts.ForwardsOnCpu) {
    const auto *Var = dyn_cast<VarDecl>(F.Module);
    // A parameter is on the CPU only where a caller in another file says
    // so: its note is there.
    if (!Var || !flow::movedOnlyInSight(*Var, Ctx) ||
        !Reported.insert(F.Call).second)
      continue;
    finding(F.Call->getBeginLoc(),
            "'%0' is built on the CPU and never moved, but its input %1 is on "
            "%2: its forward fails with 'Expected all tensors to be on the "
            "same device' (convolutions: 'Input type (CUDAFloatType) and "
            "weight type (CPUFloatType) should be the same')")
        << Var->getName() << quoted(F.Input.E, Ctx, "the input")
        << flow::describeDevice(F.Input.Value, Ctx)
        << F.Input.E->getSourceRange();
    if (!isa<ParmVarDecl>(Var))
      diag(Var->getLocation(),
           "'%0' is built here, on the CPU; no 'Module::to' moves it",
           DiagnosticIDs::Note)
          << Var->getName();
    noteAcceleratorOrigin(F.Input.Value, Ctx);
    noteCallChain(Facts, Ctx);
  }
}

} // namespace clang::tidy::torch_tidy
