//===--- ExtensionApi.cpp - What PyTorch C++/CUDA extension ops use -------===//

#include "ExtensionApi.h"
#include "TorchApi.h"
#include "utils/AstHelpers.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::torch_tidy::api {

bool isDeviceGuardType(QualType Type) {
  return hasQualifiedName(
      Type.getNonReferenceType()->getAsCXXRecordDecl(),
      {"c10::cuda::CUDAGuard", "c10::cuda::OptionalCUDAGuard",
       "c10::DeviceGuard", "c10::OptionalDeviceGuard",
       "c10::cuda::CUDAStreamGuard", "c10::cuda::OptionalCUDAStreamGuard",
       "c10::cuda::CUDAMultiStreamGuard"});
}

const ValueDecl *cudaCheckedTensor(const CXXMemberCallExpr &Call) {
  const CXXMethodDecl *Method = Call.getMethodDecl();
  if (!Method || !Method->getDeclName().isIdentifier() ||
      Method->getName() != "is_cuda")
    return nullptr;
  const Expr *Object = Call.getImplicitObjectArgument()->IgnoreParenImpCasts();
  // x.device().is_cuda(), x.type().is_cuda(), x.options().device().is_cuda()
  while (const auto *Inner = dyn_cast<CXXMemberCallExpr>(Object)) {
    const CXXMethodDecl *Getter = Inner->getMethodDecl();
    if (!Getter || !utils::isNamedOneOf(Getter, {"device", "type", "options"}))
      return nullptr;
    Object = Inner->getImplicitObjectArgument()->IgnoreParenImpCasts();
  }
  return utils::namedObject(*Object);
}

const CXXMemberCallExpr *tensorMemoryAccess(const Expr &E) {
  const auto *Call = dyn_cast<CXXMemberCallExpr>(E.IgnoreParenCasts());
  if (!Call || !isTensorMethod(Call->getMethodDecl()) ||
      !utils::isNamedOneOf(Call->getMethodDecl(),
                           {"data_ptr", "data", "mutable_data_ptr",
                            "const_data_ptr", "packed_accessor",
                            "packed_accessor32", "packed_accessor64",
                            "generic_packed_accessor"}))
    return nullptr;
  return Call;
}

bool isDefaultStream(const Expr &Stream, ASTContext &Ctx) {
  if (Stream.isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
    return true;
  // cudaStreamLegacy is ((cudaStream_t)0x1), cudaStreamPerThread 0x2.
  const auto *Literal =
      dyn_cast<IntegerLiteral>(Stream.IgnoreParenCasts());
  return Literal && Stream.getType()->isPointerType() &&
         (Literal->getValue() == 1 || Literal->getValue() == 2);
}

static bool isCudaRuntimeFunction(const CallExpr &Call,
                                  std::initializer_list<llvm::StringRef> Names) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  return Callee && Callee->getDeclContext()->getRedeclContext()->isTranslationUnit() &&
         utils::isNamedOneOf(Callee, Names);
}

bool isSynchronousMemoryCall(const CallExpr &Call) {
  return isCudaRuntimeFunction(
      Call, {"cudaMemcpy", "cudaMemset", "cudaMemcpy2D", "cudaMemset2D",
             "cudaMemcpy3D", "cudaMemset3D", "cudaMemcpyToSymbol",
             "cudaMemcpyFromSymbol"});
}

const Expr *synchronizedStream(const CallExpr &Call) {
  if (!isCudaRuntimeFunction(Call, {"cudaStreamSynchronize"}) ||
      Call.getNumArgs() != 1)
    return nullptr;
  return Call.getArg(0);
}

bool isOutputFactory(const CallExpr &Call) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || !utils::isNamedOneOf(Callee, {"empty", "zeros", "ones", "full",
                                               "empty_strided", "rand", "randn"}))
    return false;
  std::string Name = Callee->getQualifiedNameAsString();
  return Name == "torch::" + Callee->getName().str() ||
         Name == "at::" + Callee->getName().str();
}

const Expr *factoryOptionsArgument(const CallExpr &Factory) {
  unsigned First = utils::isNamedOneOf(Factory.getDirectCallee(),
                                       {"full", "empty_strided"})
                       ? 2
                       : 1;
  if (Factory.getNumArgs() <= First ||
      isa<CXXDefaultArgExpr>(Factory.getArg(First)))
    return nullptr;
  return Factory.getArg(First);
}

const Expr *dtypeOnlyOptions(const Expr &Options) {
  const Expr *Written = Options.IgnoreImplicit();
  if (const auto *Convert = dyn_cast<CXXConstructExpr>(Written))
    if (!isa<CXXTemporaryObjectExpr>(Convert) && Convert->getNumArgs() == 1)
      Written = Convert->getArg(0)->IgnoreImplicit();
  const auto *Enum = Written->getType().getNonReferenceType()->getAs<EnumType>();
  return Enum && hasQualifiedName(Enum->getDecl(), {"c10::ScalarType"})
             ? Written
             : nullptr;
}

static const DeclContext *namespaceIn(ASTContext &Ctx, const DeclContext *In,
                                      llvm::StringRef Name) {
  for (const NamedDecl *D : In->lookup(&Ctx.Idents.get(Name)))
    if (const auto *Namespace = dyn_cast<NamespaceDecl>(D))
      return Namespace;
  return nullptr;
}

bool declaresAtCudaName(ASTContext &Ctx, llvm::StringRef Name) {
  const DeclContext *TU = Ctx.getTranslationUnitDecl();
  const DeclContext *C10 = namespaceIn(Ctx, TU, "c10");
  const DeclContext *At = namespaceIn(Ctx, TU, "at");
  const DeclContext *C10Cuda = C10 ? namespaceIn(Ctx, C10, "cuda") : nullptr;
  // at::cuda names c10::cuda's through `using namespace c10::cuda`.
  return C10Cuda && At && namespaceIn(Ctx, At, "cuda") &&
         !C10Cuda->lookup(&Ctx.Idents.get(Name)).empty();
}

bool declaresTensor(ASTContext &Ctx) {
  const DeclContext *At = namespaceIn(Ctx, Ctx.getTranslationUnitDecl(), "at");
  return At && !At->lookup(&Ctx.Idents.get("Tensor")).empty();
}

namespace {
/// What names a device in a TensorOptions expression: a CUDA constant, or
/// anything that comes from the program (a variable, a string, an index).
class OptionsDevice : public RecursiveASTVisitor<OptionsDevice> {
public:
  bool Cuda = false;
  bool FromProgram = false;

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Var)
      return true;
    // kCUDA, kFloat: constexpr constants of c10.
    if (Var->isConstexpr() && !Var->isLocalVarDeclOrParm()) {
      Cuda |= Var->getName() == "kCUDA";
      return true;
    }
    FromProgram = true;
    return true;
  }
  bool VisitStringLiteral(StringLiteral *) {
    FromProgram = true;
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *Construct) {
    // Device(kCUDA, 1): an index written out is no current device.
    if (isDeviceType(Construct->getType()) && Construct->getNumArgs() == 2 &&
        !isa<CXXDefaultArgExpr>(Construct->getArg(1)))
      FromProgram = true;
    return true;
  }
};
} // namespace

OutputDevice outputDevice(const CallExpr &Factory) {
  const Expr *Options = factoryOptionsArgument(Factory);
  if (!Options)
    return OutputDevice::Cpu;
  if (dtypeOnlyOptions(*Options))
    return OutputDevice::Cpu;
  // An optional<ScalarType> of
  // at::empty's long form, or anything else, is not known here.
  if (!isTensorOptionsType(Options->getType()))
    return OutputDevice::FromArguments;
  OptionsDevice Device;
  Device.TraverseStmt(const_cast<Expr *>(Options));
  if (Device.FromProgram)
    return OutputDevice::FromArguments;
  return Device.Cuda ? OutputDevice::CurrentCuda : OutputDevice::Cpu;
}

bool isRegistrationCall(const CXXMemberCallExpr &Call) {
  const CXXMethodDecl *Method = Call.getMethodDecl();
  // Not torch::Library::impl: TORCH_LIBRARY_IMPL(ns, CUDA, m)'s kernels are
  // dispatched to for CUDA inputs only.
  return Method && utils::isNamedOneOf(Method, {"def"}) &&
         hasQualifiedName(Method->getParent(),
                          {"pybind11::module_", "pybind11::module",
                           "pybind11::class_", "torch::Library"});
}

} // namespace clang::tidy::torch_tidy::api
