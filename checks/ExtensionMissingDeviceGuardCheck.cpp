//===--- ExtensionMissingDeviceGuardCheck.cpp - extension-missing-device-guard ---===//

#include "ExtensionMissingDeviceGuardCheck.h"
#include "api/ExtensionApi.h"
#include "flow/ExtensionOps.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::torch_tidy {

void ExtensionMissingDeviceGuardCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("unit"), this);
}

/// `const at::cuda::OptionalCUDAGuard device_guard(device_of(x));` at the
/// top of \p Op, when the file includes the guard's header.
static std::optional<FixItHint> guardAtTop(const FunctionDecl &Op,
                                           ASTContext &Ctx) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Op.getBody());
  const ParmVarDecl *Input = flow::firstTensorParameter(Op);
  if (!Body || !Input || Body->getLBracLoc().isMacroID() ||
      Input->getName().empty() ||
      !api::declaresAtCudaName(Ctx, "OptionalCUDAGuard"))
    return std::nullopt;
  return FixItHint::CreateInsertion(
      Body->getLBracLoc().getLocWithOffset(1),
      ("\n  const at::cuda::OptionalCUDAGuard device_guard(device_of(" +
       Input->getName() + "));")
          .str());
}

void ExtensionMissingDeviceGuardCheck::check(
    const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  flow::ExtensionOps Ops(Ctx);
  for (const FunctionDecl *Fn : Ops.functions()) {
    llvm::ArrayRef<const CUDAKernelCallExpr *> Launches = Ops.launches(Fn);
    // A launcher of raw pointers called from another file: its op is there.
    if (Launches.empty() || !Ops.isPartOfTensorOp(Fn))
      continue;
    const CUDAKernelCallExpr *First = Launches.front();
    if (Ops.isGuardedAt(Fn, First->getBeginLoc()))
      continue;
    auto Diag = diag(First->getBeginLoc(),
                     "kernel launched with no device guard in its op: it runs "
                     "on the current CUDA device, which need not be the "
                     "device of the op's tensors")
                << First->getSourceRange();
    if (!Ops.hasCallers(Fn))
      if (std::optional<FixItHint> Fix = guardAtTop(*Fn, Ctx))
        Diag << *Fix;
  }
}

} // namespace clang::tidy::torch_tidy
