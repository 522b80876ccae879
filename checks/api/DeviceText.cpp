//===--- DeviceText.cpp - A device's printed name -------------------------===//

#include "DeviceText.h"
#include "TorchApi.h"
#include "utils/AstHelpers.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSwitch.h"

namespace clang::tidy::torch_tidy::api {

std::optional<DeviceText> deviceText(const Expr &E) {
  const Expr *Bare = utils::ignoreTemporaries(&E);
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Bare)) {
    const CXXMethodDecl *Method = Member->getMethodDecl();
    if (Method && Method->getDeclName().isIdentifier() &&
        Method->getName() == "str" &&
        isDeviceType(QualType(Method->getParent()->getTypeForDecl(), 0)))
      return DeviceText{DeviceText::DeviceName,
                        Member->getImplicitObjectArgument(), std::nullopt};
    return std::nullopt;
  }
  const auto *Call = dyn_cast<CallExpr>(Bare);
  const FunctionDecl *Fn = Call ? Call->getDirectCallee() : nullptr;
  if (!Fn || Fn->getQualifiedNameAsString() != "c10::DeviceTypeName" ||
      Call->getNumArgs() == 0)
    return std::nullopt;
  std::optional<bool> Lower = false;
  if (Call->getNumArgs() > 1 && !isa<CXXDefaultArgExpr>(Call->getArg(1))) {
    const auto *Flag =
        dyn_cast<CXXBoolLiteralExpr>(Call->getArg(1)->IgnoreParenImpCasts());
    Lower = Flag ? std::optional<bool>(Flag->getValue()) : std::nullopt;
  }
  return DeviceText{DeviceText::TypeName, Call->getArg(0), Lower};
}

const Expr *deviceOwner(const Expr &E) {
  const auto *Call =
      dyn_cast<CXXMemberCallExpr>(utils::ignoreTemporaries(&E));
  const CXXMethodDecl *Method = Call ? Call->getMethodDecl() : nullptr;
  if (!Method || !Method->getDeclName().isIdentifier() ||
      Method->getName() != "device" ||
      !isTensorType(QualType(Method->getParent()->getTypeForDecl(), 0)))
    return nullptr;
  return Call->getImplicitObjectArgument();
}

bool looksLikeDevice(llvm::StringRef Text) {
  auto [Type, Index] = Text.split(':');
  std::string Lower = Type.lower();
  if (Text.contains(':'))
    Lower += ":" + Index.str();
  return !checkDeviceString(Lower);
}

std::optional<std::string> deviceTypeTest(llvm::StringRef TypeName) {
  std::string Lower = TypeName.lower();
  bool Known = llvm::StringSwitch<bool>(Lower)
                   .Cases("cpu", "cuda", "mps", "hip", "ve", "xpu", "ipu", true)
                   .Cases("xla", "hpu", "lazy", "vulkan", "metal", "ort",
                          "meta", true)
                   .Default(false);
  if (!Known)
    return std::nullopt;
  return "is_" + Lower;
}

std::optional<std::string> deviceTypeConstant(llvm::StringRef TypeName) {
  std::string Lower = TypeName.lower();
  const char *Name = llvm::StringSwitch<const char *>(Lower)
                         .Case("cpu", "kCPU")
                         .Case("cuda", "kCUDA")
                         .Case("hip", "kHIP")
                         .Case("xla", "kXLA")
                         .Case("mps", "kMPS")
                         .Case("meta", "kMeta")
                         .Case("xpu", "kXPU")
                         .Case("hpu", "kHPU")
                         .Case("vulkan", "kVulkan")
                         .Case("metal", "kMetal")
                         .Default(nullptr);
  if (!Name)
    return std::nullopt;
  return std::string("torch::") + Name;
}

} // namespace clang::tidy::torch_tidy::api
