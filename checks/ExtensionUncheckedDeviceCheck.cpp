//===--- ExtensionUncheckedDeviceCheck.cpp - extension-unchecked-device ---===//

#include "ExtensionUncheckedDeviceCheck.h"
#include "flow/ExtensionOps.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang::ast_matchers;

namespace clang::tidy::torch_tidy {

void ExtensionUncheckedDeviceCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("unit"), this);
}

void ExtensionUncheckedDeviceCheck::check(
    const MatchFinder::MatchResult &Result) {
  flow::ExtensionOps Ops(*Result.Context);
  for (const FunctionDecl *Fn : Ops.functions()) {
    // Only where every caller is known: an op registered with Python here,
    // or what such ops call. A function called from another file may be
    // checked there.
    if (!Ops.isReachedOnlyFromPython(Fn))
      continue;
    llvm::SmallPtrSet<const ValueDecl *, 4> Reported;
    for (const flow::MemoryToKernel &Memory : Ops.memoryToKernels(Fn)) {
      if (!flow::parameterBehind(Memory.Tensor) ||
          Ops.isCudaCheckedAt(Fn, Memory.Tensor, Memory.Access->getBeginLoc()) ||
          !Reported.insert(Memory.Tensor).second)
        continue;
      diag(Memory.Access->getBeginLoc(),
           "the memory of '%0' reaches a kernel with no check that '%0' is "
           "on a CUDA device: a CPU tensor from Python becomes a host "
           "pointer read on the GPU; add TORCH_CHECK(%0.is_cuda(), ...)")
          << Memory.Tensor->getName() << Memory.Access->getSourceRange();
    }
  }
}

} // namespace clang::tidy::torch_tidy
