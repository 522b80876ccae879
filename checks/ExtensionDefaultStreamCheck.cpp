//===--- ExtensionDefaultStreamCheck.cpp - extension-default-stream -------===//

#include "ExtensionDefaultStreamCheck.h"
#include "api/ExtensionApi.h"
#include "flow/ExtensionOps.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;

namespace clang::tidy::torch_tidy {

void ExtensionDefaultStreamCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("unit"), this);
}

/// The stream argument of \p Launch made at::cuda::getCurrentCUDAStream().
static std::optional<FixItHint> currentStream(const CUDAKernelCallExpr &Launch,
                                              ASTContext &Ctx) {
  const CallExpr *Config = Launch.getConfig();
  if (Config->getNumArgs() < 4 || Launch.getBeginLoc().isMacroID() ||
      Config->getRParenLoc().isMacroID() ||
      !api::declaresAtCudaName(Ctx, "getCurrentCUDAStream"))
    return std::nullopt;
  const Expr *Stream = Config->getArg(3);
  if (!isa<CXXDefaultArgExpr>(Stream))
    return Stream->getBeginLoc().isMacroID()
               ? std::nullopt
               : std::optional(FixItHint::CreateReplacement(
                     Stream->getSourceRange(),
                     "at::cuda::getCurrentCUDAStream()"));
  bool HasSharedMemory = !isa<CXXDefaultArgExpr>(Config->getArg(2));
  return FixItHint::CreateInsertion(
      Config->getRParenLoc(), HasSharedMemory
                                  ? ", at::cuda::getCurrentCUDAStream()"
                                  : ", 0, at::cuda::getCurrentCUDAStream()");
}

namespace {
/// The CUDA runtime calls of an op's body on the default stream.
class DefaultStreamCalls : public RecursiveASTVisitor<DefaultStreamCalls> {
public:
  ASTContext &Ctx;
  std::vector<const CallExpr *> Found;
  explicit DefaultStreamCalls(ASTContext &Ctx) : Ctx(Ctx) {}
  bool VisitCallExpr(CallExpr *Call) {
    const Expr *Synchronized = api::synchronizedStream(*Call);
    if (api::isSynchronousMemoryCall(*Call) ||
        (Synchronized && api::isDefaultStream(*Synchronized, Ctx)))
      Found.push_back(Call);
    return true;
  }
};
} // namespace

void ExtensionDefaultStreamCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  // CUDA code of its own may use the default stream; an extension's runs
  // among PyTorch's work, on PyTorch's streams.
  if (!api::declaresTensor(Ctx))
    return;
  flow::ExtensionOps Ops(Ctx);
  for (const FunctionDecl *Fn : Ops.functions()) {
    for (const CUDAKernelCallExpr *Launch : Ops.launches(Fn)) {
      const CallExpr *Config = Launch->getConfig();
      const Expr *Stream = Config->getNumArgs() >= 4 ? Config->getArg(3) : nullptr;
      if (!Stream || (!isa<CXXDefaultArgExpr>(Stream) &&
                      !api::isDefaultStream(*Stream, Ctx)))
        continue;
      auto Diag = diag(Launch->getBeginLoc(),
                       "kernel launched on the default stream, not PyTorch's "
                       "current stream: it races with work the caller put on "
                       "a side stream; pass at::cuda::getCurrentCUDAStream()")
                  << Launch->getSourceRange();
      if (std::optional<FixItHint> Fix = currentStream(*Launch, Ctx))
        Diag << *Fix;
    }
    DefaultStreamCalls Calls(Ctx);
    Calls.TraverseStmt(Fn->getBody());
    for (const CallExpr *Call : Calls.Found)
      diag(Call->getBeginLoc(),
           "'%0' in an op runs on the legacy default stream, synchronising "
           "with all work and not ordered with PyTorch's current stream; use "
           "the Async form on at::cuda::getCurrentCUDAStream()")
          << Call->getDirectCallee()->getName() << Call->getSourceRange();
  }
}

} // namespace clang::tidy::torch_tidy
