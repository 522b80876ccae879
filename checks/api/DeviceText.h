//===--- DeviceText.h - A device's printed name ------------------*- C++ -*-===//
//
// The LibTorch calls that turn a device into text, and the names that text
// uses: what device-string-compare reads.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_API_DEVICETEXT_H
#define TORCH_TIDY_CHECKS_API_DEVICETEXT_H

#include "clang/AST/Expr.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace clang::tidy::torch_tidy::api {

/// A call that prints a device or a device type.
struct DeviceText {
  enum Kind {
    /// `d.str()` of a c10::Device: "cuda:0", "cuda", "cpu".
    DeviceName,
    /// `c10::DeviceTypeName(type, lower_case = false)`: "CUDA", or "cuda".
    TypeName,
  } What;
  /// The device (DeviceName) or the device type (TypeName) printed.
  const Expr *Printed;
  /// TypeName: the case of the name, when the call says it.
  std::optional<bool> LowerCase;
};
std::optional<DeviceText> deviceText(const Expr &E);

/// The tensor whose device \p E is: `t` in `t.device()`; null otherwise.
const Expr *deviceOwner(const Expr &E);

/// Whether \p Text, lower-cased before any ':', names a LibTorch device type,
/// with or without an index: "cuda", "CUDA", "cuda:1", "mps".
bool looksLikeDevice(llvm::StringRef Text);

/// c10::Device's test for a device type name: "cuda" -> "is_cuda", none for a
/// type that has no such method.
std::optional<std::string> deviceTypeTest(llvm::StringRef TypeName);
/// The DeviceType constant of a type name: "cuda" -> "torch::kCUDA".
std::optional<std::string> deviceTypeConstant(llvm::StringRef TypeName);

} // namespace clang::tidy::torch_tidy::api

#endif // TORCH_TIDY_CHECKS_API_DEVICETEXT_H
