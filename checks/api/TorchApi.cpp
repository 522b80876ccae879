//===--- TorchApi.cpp - What LibTorch names mean --------------------------===//

#include "TorchApi.h"
#include "clang/AST/DeclTemplate.h"

namespace clang::tidy::torch_tidy::api {

static const CXXRecordDecl *recordOf(QualType Type) {
  return Type.getNonReferenceType()->getAsCXXRecordDecl();
}

static bool hasQualifiedName(const NamedDecl *Decl,
                             std::initializer_list<llvm::StringRef> Names) {
  if (!Decl)
    return false;
  const std::string Name = Decl->getQualifiedNameAsString();
  for (llvm::StringRef Candidate : Names)
    if (Name == Candidate)
      return true;
  return false;
}

bool isTensorType(QualType Type) {
  return hasQualifiedName(recordOf(Type), {"at::Tensor", "at::TensorBase"});
}

bool isDeviceType(QualType Type) {
  return hasQualifiedName(recordOf(Type), {"c10::Device"});
}

static bool isOptionalDevice(QualType Type) {
  const auto *Spec =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(recordOf(Type));
  if (!Spec || !hasQualifiedName(Spec, {"c10::optional", "std::optional"}))
    return false;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  return Args.size() == 1 && Args[0].getKind() == TemplateArgument::Type &&
         isDeviceType(Args[0].getAsType());
}

bool namesADevice(QualType Type) {
  QualType Bare = Type.getNonReferenceType().getUnqualifiedType();
  if (const auto *Enum = Bare->getAs<EnumType>())
    return hasQualifiedName(Enum->getDecl(), {"c10::DeviceType"});
  return isDeviceType(Bare) || isOptionalDevice(Bare);
}

} // namespace clang::tidy::torch_tidy::api
