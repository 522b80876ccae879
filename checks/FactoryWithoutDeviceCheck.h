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
  /// An operation where a tensor a factory created without a device meets
  /// one that may be on an accelerator.
  static bool owns(const flow::Meeting &M);
  /// A module's own method feeding one of its submodules, moved with it, a
  /// tensor it created without a device: the factory is the root cause
  /// (in the training code, the input not moved is: device-unmoved-input).
  static bool owns(const flow::FunctionFacts &Facts,
                   const flow::ForwardInput &F);

private:
  void report(const flow::FunctionFacts &Facts, ASTContext &Ctx) override;
  void reportForwardInputs(const flow::FunctionFacts &Facts, ASTContext &Ctx);
  void reportStrict(const flow::FunctionFacts &Facts, ASTContext &Ctx);
  /// `Strict`: also flag every device-less factory (not 0-dim) in a function
  /// that puts tensors on an accelerator.
  const bool Strict;
};

} // namespace clang::tidy::torch_tidy

#endif // TORCH_TIDY_CHECKS_FACTORYWITHOUTDEVICECHECK_H
