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

namespace clang::tidy::torch_tidy::api {

static bool isInNamespace(const DeclContext *Context,
                          std::initializer_list<llvm::StringRef> Names) {
  for (; Context; Context = Context->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(Context))
      if (!NS->isInlineNamespace() && NS->getParent()->isTranslationUnit())
        for (llvm::StringRef Name : Names)
          if (NS->getName() == Name)
            return true;
  return false;
}

bool isLibTorchInternal(const Decl *D) {
  return isInNamespace(D->getDeclContext(), {"at", "c10", "torch", "caffe2"});
}

bool isTensorSequenceType(QualType Type) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      recordOf(Type));
  if (!Spec || !hasQualifiedName(Spec, {"std::vector", "c10::ArrayRef",
                                        "c10::List", "std::deque"}))
    return false;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  return Args.size() >= 1 && Args[0].getKind() == TemplateArgument::Type &&
         isTensorType(Args[0].getAsType());
}

bool isTensorOptionsType(QualType Type) {
  return hasQualifiedName(recordOf(Type), {"c10::TensorOptions"});
}

bool isModuleClass(const CXXRecordDecl *Record) {
  if (!Record || !Record->hasDefinition())
    return false;
  if (hasQualifiedName(Record, {"torch::nn::Module"}))
    return true;
  bool Derives = false;
  Record->forallBases([&](const CXXRecordDecl *Base) {
    Derives |= hasQualifiedName(Base, {"torch::nn::Module"});
    return true;
  });
  return Derives;
}

const CXXRecordDecl *heldModule(QualType Type) {
  const CXXRecordDecl *Record = recordOf(Type);
  if (!Record)
    return nullptr;
  if (isModuleClass(Record))
    return Record;
  // std::shared_ptr<M> and torch::nn::ModuleHolder<M> (Linear, Conv2d, ...).
  for (const CXXRecordDecl *Candidate = Record; Candidate;) {
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Candidate))
      if (hasQualifiedName(Spec, {"std::shared_ptr", "torch::nn::ModuleHolder"}) &&
          Spec->getTemplateArgs().size() >= 1 &&
          Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type) {
        const CXXRecordDecl *Held =
            Spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
        return isModuleClass(Held) ? Held : nullptr;
      }
    if (!Candidate->hasDefinition() || Candidate->getNumBases() != 1)
      return nullptr;
    Candidate = Candidate->bases_begin()->getType()->getAsCXXRecordDecl();
  }
  return nullptr;
}

bool isLossModule(const CXXRecordDecl *Module) {
  return Module && Module->getName().ends_with("LossImpl");
}

bool isDataExample(QualType Type) {
  return hasQualifiedName(recordOf(Type), {"torch::data::Example"});
}

static bool nameIn(llvm::StringRef Name,
                   std::initializer_list<llvm::StringRef> Names) {
  for (llvm::StringRef Candidate : Names)
    if (Name == Candidate)
      return true;
  return false;
}

static OpKind classifyByName(llvm::StringRef Name, bool IsOperator) {
  if (nameIn(Name, {"zeros", "ones", "empty", "full", "rand", "randn",
                    "randint", "randperm", "arange", "linspace", "logspace",
                    "eye", "tensor", "scalar_tensor", "empty_strided"}))
    return OpKind::Factory;
  if (nameIn(Name, {"zeros_like", "ones_like", "empty_like", "full_like",
                    "rand_like", "randn_like", "randint_like"}))
    return OpKind::FactoryLike;
  if (nameIn(Name, {"operator+", "operator-", "operator*", "operator/",
                    "operator==", "operator!=", "operator<", "operator<=",
                    "operator>", "operator>=", "operator&", "operator|",
                    "operator^", "add", "sub", "mul", "div", "true_divide",
                    "pow", "minimum", "maximum", "fmod", "remainder", "eq",
                    "ne", "lt", "le", "gt", "ge", "where", "atan2",
                    "logical_and", "logical_or", "hypot"}))
    return OpKind::ElementWise;
  if (nameIn(Name, {"operator+=", "operator-=", "operator*=", "operator/=",
                    "add_", "sub_", "mul_", "div_", "pow_", "copysign_"}))
    return OpKind::ElementWiseInPlace;
  if (nameIn(Name, {"mm", "matmul", "bmm", "addmm", "mv", "dot", "cat",
                    "stack", "hstack", "vstack", "index_select", "lerp",
                    "clamp", "linear", "conv1d", "conv2d", "conv3d",
                    "embedding", "masked_fill", "masked_select", "gather",
                    "scatter", "bilinear", "einsum"}))
    return OpKind::SameDevice;
  if (nameIn(Name, {"mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss",
                    "cross_entropy", "nll_loss", "binary_cross_entropy",
                    "binary_cross_entropy_with_logits", "kl_div",
                    "cosine_embedding_loss", "margin_ranking_loss",
                    "hinge_embedding_loss", "soft_margin_loss",
                    "multilabel_margin_loss", "poisson_nll_loss",
                    "triplet_margin_loss", "ctc_loss"}))
    return OpKind::Loss;
  (void)IsOperator;
  return OpKind::Other;
}

OpKind classifyFunction(const FunctionDecl *Fn) {
  if (!Fn || !Fn->getDeclName().isIdentifier()) {
    if (Fn && Fn->isOverloadedOperator())
      if (const auto *Method = dyn_cast<CXXMethodDecl>(Fn);
          !Method || isTensorType(QualType(Method->getParent()->getTypeForDecl(), 0)))
        return classifyByName(Fn->getNameAsString(), true);
    return OpKind::Other;
  }
  // LibTorch's own free functions and Tensor methods only.
  if (!isLibTorchInternal(Fn))
    return OpKind::Other;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Fn))
    if (!hasQualifiedName(Method->getParent(), {"at::Tensor", "at::TensorBase"}))
      return OpKind::Other;
  return classifyByName(Fn->getName(), false);
}

bool isZeroDimFactoryCall(const CallExpr &Call) {
  const auto *Fn = Call.getDirectCallee();
  if (!Fn || Call.getNumArgs() == 0)
    return false;
  llvm::StringRef Name = Fn->getName();
  if (Name == "scalar_tensor")
    return true;
  const Expr *First = Call.getArg(0)->IgnoreImplicit();
  if (Name == "tensor") {
    // torch::tensor(0.5) is 0-dim; torch::tensor({0.5}) is 1-D of size 1.
    // Both reach torch::tensor through an implicit TensorDataContainer.
    while (const auto *Construct = dyn_cast<CXXConstructExpr>(First)) {
      if (Construct->getNumArgs() != 1 || Construct->isListInitialization() ||
          isa<CXXTemporaryObjectExpr>(Construct))
        return false;
      First = Construct->getArg(0)->IgnoreImplicit();
    }
    return First->getType()->isArithmeticType() &&
           !isa<InitListExpr, CXXStdInitializerListExpr>(First);
  }
  if (!nameIn(Name, {"zeros", "ones", "empty", "full", "rand", "randn"}))
    return false;
  // The sizes argument written as `{}`.
  while (const auto *Construct = dyn_cast<CXXConstructExpr>(First)) {
    if (Construct->getNumArgs() == 0)
      return isa<CXXTemporaryObjectExpr>(Construct) ||
             Construct->isListInitialization();
    First = Construct->getArg(0)->IgnoreImplicit();
  }
  if (const auto *List = dyn_cast<InitListExpr>(First))
    return List->getNumInits() == 0;
  if (const auto *StdList = dyn_cast<CXXStdInitializerListExpr>(First))
    if (const auto *Inner = dyn_cast<InitListExpr>(
            StdList->getSubExpr()->IgnoreImplicit()))
      return Inner->getNumInits() == 0;
  return false;
}

std::optional<bool> isAcceleratorConstant(const NamedDecl *D) {
  if (!D || !isLibTorchInternal(D))
    return std::nullopt;
  llvm::StringRef Name = D->getName();
  if (Name == "kCPU" || Name == "CPU")
    return false;
  if (nameIn(Name, {"kCUDA", "CUDA", "kHIP", "HIP", "kMPS", "MPS", "kXPU",
                    "XPU", "kVulkan", "Vulkan", "kMetal", "Metal", "kIPU",
                    "IPU", "kXLA", "XLA", "kHPU", "HPU"}))
    return true;
  return std::nullopt;
}

std::optional<bool> isAcceleratorString(llvm::StringRef Text) {
  llvm::StringRef Type = Text.split(':').first;
  if (Type == "cpu")
    return false;
  if (nameIn(Type, {"cuda", "hip", "mps", "xpu", "vulkan", "metal", "ipu",
                    "xla", "hpu"}))
    return true;
  return std::nullopt;
}

} // namespace clang::tidy::torch_tidy::api
