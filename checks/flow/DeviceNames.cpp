//===--- DeviceNames.cpp - How findings name a tensor's device ------------===//

#include "DeviceNames.h"
#include "utils/AstHelpers.h"

namespace clang::tidy::torch_tidy::flow {

std::string describeDevice(const TensorValue &Value, const ASTContext &Ctx) {
  std::string Name = "an accelerator";
  if (Value.DeviceExpr)
    if (auto Text = utils::sourceText(*Value.DeviceExpr, Ctx))
      Name = "'" + *Text + "'";
  if (Value.MaybeAccelerator)
    return Name + " (which may be a GPU)";
  return Name;
}

} // namespace clang::tidy::torch_tidy::flow
