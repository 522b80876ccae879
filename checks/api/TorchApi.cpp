//===--- TorchApi.cpp - What LibTorch names mean --------------------------===//

#include "TorchApi.h"
#include "utils/AstHelpers.h"
#include "utils/ElementTypes.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

namespace clang::tidy::torch_tidy::api {

static const CXXRecordDecl *recordOf(QualType Type) {
  return Type.getNonReferenceType()->getAsCXXRecordDecl();
}

bool hasQualifiedName(const NamedDecl *Decl,
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

bool isTensorMethod(const CXXMethodDecl *Method) {
  return Method && Method->getDeclName().isIdentifier() &&
         isTensorType(QualType(Method->getParent()->getTypeForDecl(), 0));
}

bool isDeviceType(QualType Type) {
  return hasQualifiedName(recordOf(Type), {"c10::Device"});
}

static bool isDeviceTypeEnum(QualType Type) {
  const auto *Enum = Type.getNonReferenceType()->getAs<EnumType>();
  return Enum && hasQualifiedName(Enum->getDecl(), {"c10::DeviceType"});
}

bool isDeviceOrDeviceType(QualType Type) {
  return isDeviceType(Type) || isDeviceTypeEnum(Type);
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
  return isDeviceOrDeviceType(Bare) || isOptionalDevice(Bare);
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

bool isLibTorchDecl(const Decl *D) {
  if (const auto *Namespace = dyn_cast<NamespaceDecl>(D))
    return isLibTorchNamespace(*Namespace);
  return isLibTorchInternal(D);
}

bool isLibTorchNamespace(const NamespaceDecl &Namespace) {
  return isInNamespace(&Namespace, {"at", "c10", "torch", "caffe2"});
}

bool isInLibTorch(const Stmt &S, ASTContext &Ctx) {
  DynTypedNodeList Parents = Ctx.getParents(S);
  while (!Parents.empty()) {
    if (const auto *D = Parents[0].get<Decl>())
      return isLibTorchInternal(D);
    Parents = Ctx.getParents(Parents[0]);
  }
  return false;
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

/// The element types of LibTorch's own containers: ArrayRef, List,
/// OrderedDict, Dict.
static llvm::SmallVector<QualType, 2> libTorchElementTypes(QualType Type) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      recordOf(Type));
  if (!Spec)
    return {};
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  unsigned Element;
  if (hasQualifiedName(Spec, {"c10::ArrayRef", "c10::List"}))
    Element = 0;
  else if (hasQualifiedName(Spec, {"torch::OrderedDict", "c10::Dict"}))
    Element = 1;
  else
    return {};
  if (Element >= Args.size() || Args[Element].getKind() != TemplateArgument::Type)
    return {};
  return {Args[Element].getAsType()};
}

static bool holdsTensors(QualType Type, unsigned Depth) {
  if (Depth > 3)
    return false;
  const CXXRecordDecl *Record = recordOf(Type);
  if (!Record || isTensorType(Type) || isModuleClass(Record))
    return false;
  auto Elements = libTorchElementTypes(Type);
  if (Elements.empty()) {
    if (isLibTorchInternal(Record))
      return false;
    for (QualType Element : utils::elementTypes(Type))
      Elements.push_back(Element);
  }
  return llvm::any_of(Elements, [&](QualType Element) {
    return isTensorType(Element) || holdsTensors(Element, Depth + 1);
  });
}

bool holdsTensors(QualType Type) { return holdsTensors(Type, 0); }

bool isTensorValued(QualType Type) {
  return isTensorType(Type) || holdsTensors(Type);
}

llvm::SmallVector<const ValueDecl *, 2> devicesInScope(const Stmt &S,
                                                       ASTContext &Ctx) {
  return utils::variablesInScope(S, Ctx, isDeviceOrDeviceType);
}

bool isTensorOptionsType(QualType Type) {
  return hasQualifiedName(recordOf(Type), {"c10::TensorOptions"});
}

bool isOrDerivesFrom(const CXXRecordDecl *Record, llvm::StringRef Qualified) {
  if (!Record || !Record->hasDefinition())
    return false;
  if (hasQualifiedName(Record, {Qualified}))
    return true;
  bool Derives = false;
  Record->forallBases([&](const CXXRecordDecl *Base) {
    Derives |= hasQualifiedName(Base, {Qualified});
    return true;
  });
  return Derives;
}

bool isModuleClass(const CXXRecordDecl *Record) {
  return isOrDerivesFrom(Record, "torch::nn::Module");
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

/// The module object behind a holder: `model` in `model->`, `*model`,
/// `model.get()->`.
static const Expr *heldObject(const Expr *Object) {
  Object = utils::ignoreTemporaries(Object);
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Object))
    if (Op->getOperator() == OO_Arrow || Op->getOperator() == OO_Star)
      Object = utils::ignoreTemporaries(Op->getArg(0));
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Object))
    // ModuleHolder::operator-> reached through get() or ptr().
    Object = utils::ignoreTemporaries(Member->getImplicitObjectArgument());
  if (const auto *Unary = dyn_cast<UnaryOperator>(Object))
    if (Unary->getOpcode() == UO_Deref)
      Object = utils::ignoreTemporaries(Unary->getSubExpr());
  return Object;
}

const ValueDecl *moduleReceiver(const Expr *Object) {
  Object = heldObject(Object);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Object))
    return dyn_cast<VarDecl>(Ref->getDecl());
  if (const auto *Member = dyn_cast<MemberExpr>(Object))
    if (isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()))
      return dyn_cast<FieldDecl>(Member->getMemberDecl());
  return nullptr;
}

std::optional<SubmoduleAccess> submoduleAccess(const Expr *Object) {
  const auto *Member = dyn_cast<MemberExpr>(heldObject(Object));
  if (!Member || isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()))
    return std::nullopt;
  const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
  const ValueDecl *Owner = moduleReceiver(Member->getBase());
  if (!Field || !Owner || !heldModule(Field->getType()))
    return std::nullopt;
  return SubmoduleAccess{Owner, Field};
}

bool isBuiltWithoutDevice(const Expr &Init) {
  const Expr *Built = Init.IgnoreImplicit();
  llvm::ArrayRef<const Expr *> Args;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Built))
    Args = llvm::ArrayRef(Construct->getArgs(), Construct->getNumArgs());
  else if (const auto *Call = dyn_cast<CallExpr>(Built))
    Args = llvm::ArrayRef(Call->getArgs(), Call->getNumArgs());
  else
    return false;
  if (isa<CXXConstructExpr>(Built) && Args.size() == 1 &&
      heldModule(Args[0]->getType()))
    return false; // a copy of a module from elsewhere
  return llvm::none_of(Args, [](const Expr *Arg) {
    return namesADevice(Arg->getType()) || isTensorOptionsType(Arg->getType());
  });
}

bool isModuleTo(const CXXMemberCallExpr &Call) {
  const CXXMethodDecl *Method = Call.getMethodDecl();
  return Method && Method->getDeclName().isIdentifier() &&
         Method->getName() == "to" && isModuleClass(Method->getParent());
}

bool leavesModuleInPlace(const FunctionDecl &Fn) {
  return isLibTorchInternal(&Fn) &&
         utils::isNamedOneOf(&Fn, {"forward", "parameters", "named_parameters",
                                   "buffers", "named_buffers", "train", "eval",
                                   "is_training", "zero_grad", "pretty_print",
                                   "name", "is_empty", "save"});
}

const CXXRecordDecl *movedModuleClass(const CXXMemberCallExpr &Call) {
  // Under the derived-to-base cast to the Module that declares to().
  QualType Object =
      Call.getImplicitObjectArgument()->IgnoreParenImpCasts()->getType();
  if (Object->isPointerType())
    Object = Object->getPointeeType();
  const CXXRecordDecl *Module = heldModule(Object);
  if (!Module || hasQualifiedName(Module, {"torch::nn::Module"}))
    return nullptr;
  return Module;
}

std::string moduleName(const CXXRecordDecl &Module) {
  llvm::StringRef Name = Module.getName();
  return Name.drop_back(Name.ends_with("Impl") ? 4 : 0).str();
}

bool takesStateOnItsDevice(const CXXRecordDecl *Module) {
  return hasQualifiedName(
      Module, {"torch::nn::LSTMImpl", "torch::nn::GRUImpl", "torch::nn::RNNImpl",
               "torch::nn::LSTMCellImpl", "torch::nn::GRUCellImpl",
               "torch::nn::RNNCellImpl", "torch::nn::MultiheadAttentionImpl",
               "torch::nn::TransformerImpl", "torch::nn::TransformerEncoderImpl",
               "torch::nn::TransformerDecoderImpl",
               "torch::nn::TransformerEncoderLayerImpl",
               "torch::nn::TransformerDecoderLayerImpl"});
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

std::optional<CheckpointLoad> checkpointLoad(const CallExpr &Call) {
  if (!hasQualifiedName(Call.getDirectCallee(), {"torch::load"}) ||
      Call.getNumArgs() < 2)
    return std::nullopt;
  CheckpointLoad Load{Call.getArg(0), nullptr};
  for (const Expr *Arg : llvm::drop_begin(Call.arguments()))
    if (!isa<CXXDefaultArgExpr>(Arg) && namesADevice(Arg->getType()))
      Load.Device = Arg;
  return Load;
}

bool isRawAccess(const CXXMethodDecl *Method) {
  if (!Method || !Method->getDeclName().isIdentifier() ||
      !hasQualifiedName(Method->getParent(), {"at::Tensor", "at::TensorBase"}))
    return false;
  return nameIn(Method->getName(), {"data_ptr", "data", "mutable_data_ptr",
                                    "const_data_ptr", "accessor"});
}

static OpKind classifyByName(llvm::StringRef Name) {
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
                    "cross_entropy", "cross_entropy_loss", "nll_loss",
                    "nll_loss2d", "nll_loss_nd", "binary_cross_entropy",
                    "binary_cross_entropy_with_logits", "kl_div",
                    "cosine_embedding_loss", "margin_ranking_loss",
                    "hinge_embedding_loss", "soft_margin_loss",
                    "multilabel_margin_loss", "poisson_nll_loss",
                    "triplet_margin_loss", "ctc_loss"}))
    return OpKind::Loss;
  return OpKind::Other;
}

bool checksDevices(OpKind Kind) {
  return Kind == OpKind::ElementWise || Kind == OpKind::ElementWiseInPlace ||
         Kind == OpKind::SameDevice || Kind == OpKind::Loss;
}

OpKind classifyFunction(const FunctionDecl *Fn) {
  if (!Fn || !Fn->getDeclName().isIdentifier()) {
    // An operator of tensors: a Tensor method, or a free operator with a
    // tensor operand (`2 * x`; not an iterator's `==`).
    if (Fn && Fn->isOverloadedOperator())
      if (const auto *Method = dyn_cast<CXXMethodDecl>(Fn);
          Method ? isTensorType(QualType(Method->getParent()->getTypeForDecl(), 0))
                 : llvm::any_of(Fn->parameters(), [](const ParmVarDecl *P) {
                     return isTensorType(P->getType());
                   }))
        return classifyByName(Fn->getNameAsString());
    return OpKind::Other;
  }
  // LibTorch's own free functions and Tensor methods only.
  if (!isLibTorchInternal(Fn))
    return OpKind::Other;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Fn))
    if (!hasQualifiedName(Method->getParent(), {"at::Tensor", "at::TensorBase"}))
      return OpKind::Other;
  return classifyByName(Fn->getName());
}

bool asksNoReduction(const CallExpr &Call) {
  using namespace ast_matchers;
  const Decl *Callee = Call.getCalleeDecl();
  if (!Callee)
    return false;
  ASTContext &Ctx = const_cast<ASTContext &>(Callee->getASTContext());
  for (const Expr *Arg : Call.arguments())
    if (!isa<CXXDefaultArgExpr>(Arg) &&
        !match(expr(anyOf(declRefExpr(to(namedDecl(hasAnyName("None", "kNone")))),
                          hasDescendant(declRefExpr(
                              to(namedDecl(hasAnyName("None", "kNone"))))))),
               *Arg, Ctx)
             .empty())
      return true;
  return false;
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


// Device strings. LibTorch 1.13's parser (c10/core/Device.cpp) accepts
// `[a-zA-Z_]+(:(0|[1-9][0-9]*))?`, then looks the type name up, case-sensitively,
// in this list; the index is stored in an int8_t DeviceIndex. Measured against
// Debian's libc10 1.13.1: "CPU", "cuda0", "cuda:", "cuda:01", "cuda: 1",
// "cuda:-1" throw; "cuda:128" is read as cuda:-128 and "cuda:300" as cuda:44.
static const llvm::StringRef DeviceTypeNames[] = {
    "cpu",  "cuda", "ipu",  "xpu",   "mkldnn", "opengl",       "opencl",
    "ideep", "hip", "ve",   "fpga",  "ort",    "xla",          "lazy",
    "vulkan", "mps", "meta", "hpu",  "privateuseone",
    // Accepted by later LibTorch versions: never reported.
    "mtia", "maia"};

static bool isDeviceTypeName(llvm::StringRef Name) {
  for (llvm::StringRef Known : DeviceTypeNames)
    if (Name == Known)
      return true;
  return false;
}

static bool isTypeNameSyntax(llvm::StringRef Name) {
  return !Name.empty() && llvm::all_of(Name, [](char C) {
    return llvm::isAlpha(C) || C == '_';
  });
}

/// The first reason LibTorch rejects or misreads \p Text, without a fix.
static std::optional<DeviceStringProblem> firstDefect(llvm::StringRef Text) {
  auto Throws = [](std::string Reason) {
    return DeviceStringProblem{std::move(Reason), true, std::nullopt};
  };
  if (Text.empty())
    return Throws("it is empty");
  if (llvm::any_of(Text, [](char C) { return llvm::isSpace(C); }))
    return Throws("it contains white space");
  auto [Name, Index] = Text.split(':');
  bool HasIndex = Text.contains(':');
  if (Name.lower() == "gpu")
    return Throws("LibTorch has no 'gpu' device type (use \"cuda\")");
  if (!isTypeNameSyntax(Name)) {
    llvm::StringRef Letters = Name.rtrim("0123456789");
    if (!HasIndex && Letters.size() < Name.size() &&
        isDeviceTypeName(Letters.lower()))
      return Throws("the index must follow a ':'");
    return Throws("it is not of the form 'type' or 'type:index'");
  }
  if (!isDeviceTypeName(Name)) {
    if (isDeviceTypeName(Name.lower()))
      return Throws("device types are lower-case");
    return Throws("'" + Name.str() + "' is not a LibTorch device type");
  }
  if (!HasIndex)
    return std::nullopt;
  if (Index.empty())
    return Throws("':' is not followed by an index");
  if (Index.starts_with("-"))
    return Throws("an index in a device string cannot be negative");
  if (!llvm::all_of(Index, llvm::isDigit))
    return Throws("the index is not a decimal number");
  if (Index.size() > 1 && Index.starts_with("0"))
    return Throws("an index has no leading zeros");
  unsigned long long Value = 0;
  if (Index.getAsInteger(10, Value) || Value > 2147483647ULL)
    return Throws("the index does not fit an int");
  if (Value > 127) {
    int Read = static_cast<int8_t>(static_cast<uint8_t>(Value & 0xff));
    return DeviceStringProblem{
        "the index " + std::to_string(Value) +
            " does not fit LibTorch's 8-bit DeviceIndex and is read as " +
            std::to_string(Read),
        false, std::nullopt};
  }
  return std::nullopt;
}

/// \p Text with the spelling mistakes whose meaning is unambiguous repaired:
/// white space removed, the type name lower-cased, a missing ':' before a
/// trailing index inserted, leading zeros of the index dropped.
static std::string normalizeDeviceString(llvm::StringRef Text) {
  std::string Bare;
  for (char C : Text)
    if (!llvm::isSpace(C))
      Bare.push_back(C);
  auto [Name, Index] = llvm::StringRef(Bare).split(':');
  bool HasIndex = llvm::StringRef(Bare).contains(':');
  std::string Type = Name.lower();
  if (!HasIndex) {
    llvm::StringRef Letters = llvm::StringRef(Type).rtrim("0123456789");
    if (Letters.size() < Type.size() && isDeviceTypeName(Letters)) {
      Index = Name.substr(Letters.size());
      Type = Letters.str();
      HasIndex = true;
    }
  }
  if (!HasIndex)
    return Type;
  llvm::StringRef Digits = Index.ltrim('0');
  if (Digits.empty() && !Index.empty())
    Digits = "0";
  return Type + ":" + Digits.str();
}

std::optional<DeviceStringProblem> checkDeviceString(llvm::StringRef Text) {
  std::optional<DeviceStringProblem> Problem = firstDefect(Text);
  if (!Problem || !Problem->Throws)
    return Problem;
  std::string Fixed = normalizeDeviceString(Text);
  if (Fixed != Text && !firstDefect(Fixed) &&
      llvm::StringRef(Text).lower() != "gpu")
    Problem->Fix = Fixed;
  return Problem;
}

std::optional<unsigned> deviceStringIndex(llvm::StringRef Text) {
  if (checkDeviceString(Text) || !Text.contains(':'))
    return std::nullopt;
  unsigned Index = 0;
  if (Text.split(':').second.getAsInteger(10, Index))
    return std::nullopt;
  return Index;
}

bool isCudaString(llvm::StringRef Text) {
  return !checkDeviceString(Text) && Text.split(':').first == "cuda";
}

static bool isDeviceOrOptionsType(QualType Type) {
  return namesADevice(Type) || isTensorOptionsType(Type);
}

static const FunctionDecl *calleeOf(const Expr &E) {
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(&E))
    return Construct->getConstructor();
  if (const auto *Call = dyn_cast<CallExpr>(&E))
    return Call->getDirectCallee();
  return nullptr;
}

static const Expr *writtenArg(const Expr &E, unsigned I) {
  const Expr *Arg = nullptr;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(&E)) {
    if (I < Construct->getNumArgs())
      Arg = Construct->getArg(I);
  } else if (const auto *Call = dyn_cast<CallExpr>(&E)) {
    if (I < Call->getNumArgs())
      Arg = Call->getArg(I);
  }
  return Arg && !isa<CXXDefaultArgExpr>(Arg) ? Arg : nullptr;
}

/// 0 for `device_index(i)`, 1 for `Device(type, i)` and
/// `TensorOptions::device(type, i)`; nothing for other calls.
static std::optional<unsigned> deviceIndexPosition(const Expr &E) {
  const FunctionDecl *Fn = calleeOf(E);
  if (!Fn || !isLibTorchInternal(Fn))
    return std::nullopt;
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Fn))
    return isDeviceType(QualType(Ctor->getParent()->getTypeForDecl(), 0)) &&
                   Ctor->getNumParams() == 2
               ? std::optional<unsigned>(1)
               : std::nullopt;
  if (!isTensorOptionsType(Fn->getReturnType()))
    return std::nullopt;
  if (Fn->getName() == "device_index")
    return 0;
  if (Fn->getName() == "device" && isa<CXXMethodDecl>(Fn))
    return 1;
  return std::nullopt;
}

bool mentionsAccelerator(const Stmt &S) {
  if (const auto *Ref = dyn_cast<DeclRefExpr>(&S)) {
    if (isAcceleratorConstant(Ref->getDecl()).value_or(false))
      return true;
    const auto *Fn = dyn_cast<FunctionDecl>(Ref->getDecl());
    return Fn && Fn->getQualifiedNameAsString() == "torch::cuda::is_available";
  }
  if (const auto *Literal = dyn_cast<StringLiteral>(&S))
    return Literal->isOrdinary() &&
           isAcceleratorString(Literal->getString()).value_or(false);
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(&S))
    return Call->getMethodDecl() &&
           Call->getMethodDecl()->getDeclName().isIdentifier() &&
           Call->getMethodDecl()->getName() == "cuda";
  return false;
}

const Expr *explicitDeviceIndex(const Expr &E) {
  std::optional<unsigned> Position = deviceIndexPosition(E);
  return Position ? writtenArg(E, *Position) : nullptr;
}

const Expr *explicitDeviceType(const Expr &E) {
  std::optional<unsigned> Position = deviceIndexPosition(E);
  return Position && *Position == 1 ? writtenArg(E, 0) : nullptr;
}

bool isDeviceBuilder(const FunctionDecl *Fn) {
  if (!Fn || !isLibTorchInternal(Fn))
    return false;
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Fn))
    return isDeviceOrOptionsType(QualType(Ctor->getParent()->getTypeForDecl(), 0));
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Fn))
    if (!isTensorOptionsType(QualType(Method->getParent()->getTypeForDecl(), 0)))
      return false;
  return isDeviceOrOptionsType(Fn->getReturnType());
}

bool isDeviceTakingOperation(const FunctionDecl *Fn) {
  if (!Fn || !isLibTorchInternal(Fn))
    return false;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Fn)) {
    const CXXRecordDecl *Class = Method->getParent();
    if (hasQualifiedName(Class, {"at::Tensor", "at::TensorBase"}))
      return true;
    if (isModuleClass(Class))
      return Method->getName() == "to";
    return hasQualifiedName(Class, {"torch::serialize::InputArchive"}) &&
           Method->getName() == "load_from";
  }
  if (isa<CXXConstructorDecl>(Fn))
    return false;
  llvm::StringRef Name =
      Fn->getDeclName().isIdentifier() ? Fn->getName() : llvm::StringRef();
  return isTensorType(Fn->getReturnType()) || isTensorSequenceType(Fn->getReturnType()) ||
         Name == "load";
}

} // namespace clang::tidy::torch_tidy::api
