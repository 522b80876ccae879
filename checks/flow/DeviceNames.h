//===--- DeviceNames.h - How findings name a tensor's device --------------===//

#ifndef TORCH_TIDY_CHECKS_FLOW_DEVICENAMES_H
#define TORCH_TIDY_CHECKS_FLOW_DEVICENAMES_H

#include "Lattice.h"
#include "clang/AST/ASTContext.h"
#include <string>

namespace clang::tidy::torch_tidy::flow {

/// How a finding names the device an operand may be on: `'device' (which
/// may be a GPU)`, `'torch::kCUDA'`, `an accelerator`.
std::string describeDevice(const TensorValue &Value, const ASTContext &Ctx);

} // namespace clang::tidy::torch_tidy::flow

#endif // TORCH_TIDY_CHECKS_FLOW_DEVICENAMES_H
