//===--- TorchApi.h - What LibTorch names mean ----------------------------===//
//
// The one place where torch-tidy's checks learn LibTorch's API: which records
// are tensors, devices and modules, which methods move a tensor between
// devices, which functions load checkpoints. Checks never spell LibTorch names
// themselves.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_API_TORCHAPI_H
#define TORCH_TIDY_CHECKS_API_TORCHAPI_H

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Type.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "llvm/ADT/StringRef.h"

namespace clang::tidy::torch_tidy::api {

/// at::Tensor or at::TensorBase (torch::Tensor is an alias of at::Tensor).
inline auto tensorRecord() {
  using namespace ast_matchers;
  return cxxRecordDecl(hasAnyName("::at::Tensor", "::at::TensorBase"));
}

/// A type that is a tensor once sugar (typedefs, `auto`) is removed; cv- and
/// reference-qualified tensors included.
inline auto tensorType() {
  using namespace ast_matchers;
  return qualType(hasUnqualifiedDesugaredType(
      recordType(hasDeclaration(tensorRecord()))));
}

/// Tensor methods that return a tensor on another device or of another type and
/// leave the object itself unchanged: `to`, `cuda`, `cpu`, `toType`, ...
inline auto conversionMethod() {
  using namespace ast_matchers;
  return cxxMethodDecl(
      hasAnyName("to", "cuda", "cpu", "hip", "mps", "xpu", "ipu", "meta",
                 "vulkan", "metal", "toType", "toBackend", "type_as"),
      ofClass(tensorRecord()));
}

/// A call of one of the conversion methods above.
inline auto conversionCall() {
  using namespace ast_matchers;
  return cxxMemberCallExpr(callee(conversionMethod()));
}

/// `torch::load(value, source...)`: restores tensors to the device they were
/// saved from unless a device is passed.
inline auto checkpointLoadFunction() {
  using namespace ast_matchers;
  return functionDecl(hasAnyName("::torch::load", "::torch::jit::load",
                                 "::torch::serialize::InputArchive::load_from"));
}

bool isTensorType(QualType Type);
bool isDeviceType(QualType Type);
/// c10::Device, c10::DeviceType or c10::optional<c10::Device>: an argument of
/// one of these types names the device a checkpoint is loaded to.
bool namesADevice(QualType Type);

} // namespace clang::tidy::torch_tidy::api

#endif // TORCH_TIDY_CHECKS_API_TORCHAPI_H
