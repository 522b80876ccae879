//===--- FactoryWithoutDeviceCheck.h - device-factory-without-device ------===//

#ifndef TORCH_TIDY_CHECKS_FACTORYWITHOUTDEVICECHECK_H
#define TORCH_TIDY_CHECKS_FACTORYWITHOUTDEVICECHECK_H

#include "flow/FlowCheck.h"

namespace clang::tidy::torch_tidy {

/// Finds tensors created without a device (so on the CPU) that later meet a
/// tensor that may be on an accelerator in an operation that rejects them.
/// Reported at the creation.
class FactoryWithoutDeviceCheck : public flow::FlowCheck {
public:
  FactoryWithoutDeviceCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  void report(const flow::FunctionFacts &Facts, ASTContext &Ctx) override;
  void reportStrict(const flow::FunctionFacts &Facts);
  /// `Strict`: also flag every device-less factory (not 0-dim) in a function
  /// that puts tensors on an accelerator.
  const bool Strict;
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_FACTORYWITHOUTDEVICECHECK_H
