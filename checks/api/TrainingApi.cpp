//===--- TrainingApi.cpp - What LibTorch's training names mean ------------===//

#include "TrainingApi.h"
#include "HostTensors.h"
#include "TorchApi.h"
#include "utils/AstHelpers.h"
#include "clang/AST/DeclTemplate.h"

namespace clang::tidy::torch_tidy::api {

// TorchApi's qualified-name test, short: this file asks it on most lines.
static bool named(const NamedDecl *D,
                  std::initializer_list<llvm::StringRef> Names) {
  return hasQualifiedName(D, Names);
}

static bool isJitModuleClass(const CXXRecordDecl *Record) {
  return named(Record, {"torch::jit::Module", "torch::jit::Object"});
}

static bool isAnyModuleClass(const CXXRecordDecl *Record) {
  return isModuleClass(Record) || isJitModuleClass(Record);
}

/// Whether \p Arg, an argument as written, is the literal `false` (or 0).
static bool isFalseLiteral(const Expr *Arg) {
  if (!Arg || isa<CXXDefaultArgExpr>(Arg))
    return false;
  Arg = Arg->IgnoreParenImpCasts();
  if (const auto *Bool = dyn_cast<CXXBoolLiteralExpr>(Arg))
    return !Bool->getValue();
  if (const auto *Int = dyn_cast<IntegerLiteral>(Arg))
    return Int->getValue().isZero();
  return false;
}

static bool isTrueLiteral(const Expr *Arg) {
  if (!Arg)
    return false;
  if (isa<CXXDefaultArgExpr>(Arg))
    return true; // train() means train(true)
  const auto *Bool = dyn_cast<CXXBoolLiteralExpr>(Arg->IgnoreParenImpCasts());
  return Bool && Bool->getValue();
}

bool isOptimizerClass(const CXXRecordDecl *Record) {
  return isOrDerivesFrom(Record, "torch::optim::Optimizer");
}

const CXXRecordDecl *heldOptimizer(QualType Type) {
  QualType Bare = Type.getNonReferenceType();
  if (Bare->isPointerType())
    Bare = Bare->getPointeeType();
  const CXXRecordDecl *Record = Bare->getAsCXXRecordDecl();
  if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(Record);
      Spec && named(Spec, {"std::shared_ptr", "std::unique_ptr"}) &&
      Spec->getTemplateArgs().size() >= 1 &&
      Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
    Record = Spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
  return isOptimizerClass(Record) ? Record : nullptr;
}

const ValueDecl *receiverObject(const Expr *Object) {
  if (!Object)
    return nullptr;
  const Expr *Bare = utils::ignoreTemporaries(Object);
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Bare);
      Op && (Op->getOperator() == OO_Arrow || Op->getOperator() == OO_Star))
    Bare = utils::ignoreTemporaries(Op->getArg(0));
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(Bare))
    if (!utils::isNamedOneOf(Call->getMethodDecl(), {"get", "ptr"}))
      return nullptr;
  return moduleReceiver(Object);
}

bool isOptimizerStep(const CXXMemberCallExpr &Call) {
  const CXXMethodDecl *Method = Call.getMethodDecl();
  return utils::isNamedOneOf(Method, {"step"}) &&
         isOptimizerClass(Method->getParent());
}

bool isZeroGrad(const CXXMemberCallExpr &Call) {
  const CXXMethodDecl *Method = Call.getMethodDecl();
  return utils::isNamedOneOf(Method, {"zero_grad"}) &&
         (isOptimizerClass(Method->getParent()) ||
          isModuleClass(Method->getParent()));
}

/// `p.grad()` or `p.mutable_grad()`, through temporaries.
static bool isGradAccess(const Expr *E) {
  const auto *Call =
      dyn_cast<CXXMemberCallExpr>(utils::ignoreTemporaries(E));
  return Call && isTensorMethod(Call->getMethodDecl()) &&
         utils::isNamedOneOf(Call->getMethodDecl(), {"grad", "mutable_grad"});
}

bool isManualGradReset(const Expr &E) {
  if (const auto *Call = dyn_cast<CXXMemberCallExpr>(&E))
    return utils::isNamedOneOf(Call->getMethodDecl(), {"zero_", "fill_", "reset"}) &&
           isGradAccess(Call->getImplicitObjectArgument());
  if (const auto *Assign = dyn_cast<CXXOperatorCallExpr>(&E))
    return Assign->getOperator() == OO_Equal && Assign->getNumArgs() == 2 &&
           isGradAccess(Assign->getArg(0));
  return false;
}

bool isBackward(const CallExpr &Call) {
  const FunctionDecl *Fn = Call.getDirectCallee();
  if (const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Fn))
    return isTensorMethod(Method) && utils::isNamedOneOf(Method, {"backward"});
  return named(Fn, {"torch::autograd::backward"});
}

bool isAutogradGrad(const CallExpr &Call) {
  return named(Call.getDirectCallee(), {"torch::autograd::grad"});
}

bool isParametersCall(const CXXMemberCallExpr &Call) {
  const CXXMethodDecl *Method = Call.getMethodDecl();
  return utils::isNamedOneOf(Method, {"parameters", "named_parameters"}) &&
         isAnyModuleClass(Method->getParent());
}

const Expr *forwardedModule(const CallExpr &Call) {
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call)) {
    const CXXMethodDecl *Method = Member->getMethodDecl();
    if (utils::isNamedOneOf(Method, {"forward"}) &&
        isAnyModuleClass(Method->getParent()))
      return Member->getImplicitObjectArgument();
    return nullptr;
  }
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call);
  if (!Op || Op->getOperator() != OO_Call || Op->getNumArgs() == 0)
    return nullptr;
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee());
  if (!Method)
    return nullptr;
  const CXXRecordDecl *Class = Method->getParent();
  bool IsHolder = false;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Class))
    IsHolder = named(Spec, {"torch::nn::ModuleHolder"});
  return IsHolder || isAnyModuleClass(Class) ? Op->getArg(0) : nullptr;
}

const Expr *evaluatedModule(const CXXMemberCallExpr &Call) {
  const CXXMethodDecl *Method = Call.getMethodDecl();
  if (!Method || !isAnyModuleClass(Method->getParent()))
    return nullptr;
  if (utils::isNamedOneOf(Method, {"eval"}) ||
      (utils::isNamedOneOf(Method, {"train"}) && Call.getNumArgs() == 1 &&
       isFalseLiteral(Call.getArg(0))))
    return Call.getImplicitObjectArgument();
  return nullptr;
}

const Expr *trainedModule(const CXXMemberCallExpr &Call) {
  const CXXMethodDecl *Method = Call.getMethodDecl();
  if (!Method || !isAnyModuleClass(Method->getParent()) ||
      !utils::isNamedOneOf(Method, {"train"}))
    return nullptr;
  return Call.getNumArgs() == 0 || isTrueLiteral(Call.getArg(0))
             ? Call.getImplicitObjectArgument()
             : nullptr;
}

bool isModelStep(const CallExpr &Call) {
  if (isBackward(Call) || forwardedModule(Call))
    return true;
  const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call);
  return Member && isOptimizerStep(*Member);
}

bool queuesDeviceWork(const CallExpr &Call) {
  if (isModelStep(Call))
    return true;
  const FunctionDecl *Fn = Call.getDirectCallee();
  if (!Fn || !isLibTorchInternal(Fn) || !isTensorType(Call.getType()) ||
      hostSync(Call))
    return false;
  bool Named = Fn->getDeclName().isIdentifier();
  // A reference returned is a tensor that exists already: an accessor, or
  // the object of an in-place operation (`add_`, `+=`), which does work.
  if (Fn->getReturnType()->isReferenceType())
    return Named ? Fn->getName().ends_with("_")
                 : Fn->getOverloadedOperator() != OO_Subscript &&
                       Fn->getOverloadedOperator() != OO_Equal;
  if (!Named)
    return Fn->getOverloadedOperator() != OO_Subscript;
  static const llvm::StringRef Views[] = {
      "select",  "slice",     "narrow",    "view",      "view_as",
      "reshape", "squeeze",   "unsqueeze", "permute",   "transpose",
      "t",       "expand",    "expand_as", "detach",    "index",
      "flatten", "unflatten", "alias",     "as_strided", "chunk",
      "split",   "unbind",    "grad",      "mutable_grad", "data"};
  return !llvm::is_contained(Views, Fn->getName());
}

bool disablesGradients(const VarDecl &Var) {
  const CXXRecordDecl *Record = Var.getType()->getAsCXXRecordDecl();
  if (named(Record, {"c10::NoGradGuard", "at::AutoNonVariableTypeMode"}))
    return true;
  if (!named(Record, {"c10::InferenceMode", "c10::AutoGradMode"}))
    return false;
  const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(
      Var.getInit() ? Var.getInit()->IgnoreImplicit() : nullptr);
  const Expr *Enabled =
      Construct && Construct->getNumArgs() > 0 ? Construct->getArg(0) : nullptr;
  // InferenceMode(true), its default, turns gradients off; AutoGradMode(true)
  // turns them on. A value not written as a literal may turn them off: taken
  // as a guard.
  if (Record->getName() == "InferenceMode")
    return !isFalseLiteral(Enabled);
  return !isTrueLiteral(Enabled);
}

bool isGradModeOff(const CallExpr &Call) {
  return named(Call.getDirectCallee(), {"c10::GradMode::set_enabled"}) &&
         Call.getNumArgs() == 1 && !isTrueLiteral(Call.getArg(0));
}

const Expr *frozenTensor(const CXXMemberCallExpr &Call) {
  const CXXMethodDecl *Method = Call.getMethodDecl();
  if (!isTensorMethod(Method) ||
      !utils::isNamedOneOf(Method, {"requires_grad_", "set_requires_grad"}) ||
      Call.getNumArgs() == 0 || isTrueLiteral(Call.getArg(0)))
    return nullptr;
  return Call.getImplicitObjectArgument();
}

static bool isSynchronizeFunction(const FunctionDecl *Fn) {
  return named(Fn, {"torch::cuda::synchronize", "c10::cuda::device_synchronize",
                    "cudaDeviceSynchronize", "cudaStreamSynchronize"});
}

std::optional<HostSync> hostSync(const Expr &E) {
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&E)) {
    const CXXMethodDecl *Method = Member->getMethodDecl();
    if (!isTensorMethod(Method) || !Method->getDeclName().isIdentifier())
      return std::nullopt;
    llvm::StringRef Name = Method->getName();
    const Expr *Tensor = Member->getImplicitObjectArgument();
    if (Name == "item")
      return HostSync{HostSync::Item, Tensor, Name};
    if (Name == "cpu")
      return HostSync{HostSync::ToCpu, Tensor, Name};
    if (Name == "to" && Member->getNumArgs() > 0 &&
        namesTheCpu(Member->getArg(0)))
      return HostSync{HostSync::ToCpu, Tensor, Name};
    if (Name == "nonzero")
      return HostSync{HostSync::Nonzero, Tensor, Name};
    if (Name == "equal" || Name == "allclose" || Name == "is_nonzero")
      return HostSync{HostSync::Compare, Tensor, Name};
    return std::nullopt;
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&E)) {
    const FunctionDecl *Fn = Op->getDirectCallee();
    if (Op->getOperator() == OO_LessLess && Fn && isLibTorchInternal(Fn) &&
        Op->getNumArgs() == 2 && isTensorType(Op->getArg(1)->getType()))
      return HostSync{HostSync::Print, Op->getArg(1), "operator<<"};
    return std::nullopt;
  }
  if (const auto *Call = dyn_cast<CallExpr>(&E)) {
    const FunctionDecl *Fn = Call->getDirectCallee();
    if (isSynchronizeFunction(Fn))
      return HostSync{HostSync::Synchronize, nullptr, Fn->getName()};
    if (named(Fn, {"at::nonzero", "torch::nonzero"}) && Call->getNumArgs() > 0)
      return HostSync{HostSync::Nonzero, Call->getArg(0), "nonzero"};
    if (named(Fn, {"at::equal", "torch::equal", "at::allclose",
                   "torch::allclose"}) &&
        Call->getNumArgs() > 0)
      return HostSync{HostSync::Compare, Call->getArg(0), Fn->getName()};
  }
  return std::nullopt;
}

/// A number on the host: a C++ arithmetic type or a c10::Scalar.
static bool isHostNumber(QualType Type) {
  Type = Type.getNonReferenceType();
  return Type->isArithmeticType() ||
         named(Type->getAsCXXRecordDecl(), {"c10::Scalar"});
}

utils::OperandUse hostValueUse(const CallExpr &Call, const Expr &Operand) {
  using utils::OperandUse;
  const FunctionDecl *Fn = Call.getDirectCallee();
  if (!Fn || !isLibTorchInternal(Fn))
    return OperandUse::Unknown;
  // A new tensor or number is computed from its operands; an in-place
  // operation, a setter or a raw pointer uses them now.
  const auto *Method = dyn_cast<CXXMethodDecl>(Fn);
  if (Fn->getReturnType()->isReferenceType() ||
      !(isTensorType(Call.getType()) || isHostNumber(Call.getType())) ||
      isRawAccess(Method))
    return OperandUse::Needed;
  bool ObjectFirst = isa<CXXOperatorCallExpr>(Call) && Method &&
                     Method->isInstance();
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call);
      (Member && Member->getImplicitObjectArgument() == &Operand) ||
      (ObjectFirst && Call.getArg(0) == &Operand))
    return OperandUse::Carried;
  for (unsigned I = ObjectFirst; I < Call.getNumArgs(); ++I) {
    unsigned Index = I - ObjectFirst;
    if (Call.getArg(I) != &Operand || Index >= Fn->getNumParams())
      continue;
    // Sizes, dimensions and indices are integers; values are tensors,
    // Scalars or floating-point numbers.
    QualType Type = Fn->getParamDecl(Index)->getType();
    return isTensorType(Type) || (isHostNumber(Type) &&
                                  !Type.getNonReferenceType()
                                       ->isIntegralOrEnumerationType())
               ? OperandUse::Carried
               : OperandUse::Needed;
  }
  return OperandUse::Needed;
}

} // namespace clang::tidy::torch_tidy::api
