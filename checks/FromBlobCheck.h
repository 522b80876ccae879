//===--- FromBlobCheck.h - device-from-blob -------------------------------===//

#ifndef TORCH_TIDY_CHECKS_FROMBLOBCHECK_H
#define TORCH_TIDY_CHECKS_FROMBLOBCHECK_H

#include "flow/FlowCheck.h"

namespace clang::tidy::torch_tidy {

/// Finds `torch::from_blob(ptr, ...)` whose options' device disagrees with
/// where `ptr` lives: host memory wrapped with an accelerator device, or
/// device memory wrapped without one. Silent when the origin is unknown.
class FromBlobCheck : public flow::FlowCheck {
public:
  using FlowCheck::FlowCheck;

private:
  void report(const flow::FunctionFacts &Facts, ASTContext &Ctx) override;
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_FROMBLOBCHECK_H
