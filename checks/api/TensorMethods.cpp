//===--- TensorMethods.cpp - What the dataflow asks of LibTorch's names ---===//

#include "TensorMethods.h"
#include "TorchApi.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::torch_tidy::api {

static bool isNamed(const NamedDecl *D,
                    std::initializer_list<llvm::StringRef> Names) {
  if (!D || !D->getDeclName().isIdentifier())
    return false;
  for (llvm::StringRef Name : Names)
    if (D->getName() == Name)
      return true;
  return false;
}

TensorMove tensorMoveOf(const CXXMethodDecl *Method) {
  if (!isTensorMethod(Method))
    return TensorMove::None;
  llvm::StringRef Name = Method->getName();
  if (Name == "to")
    return TensorMove::To;
  if (Name == "cuda")
    return TensorMove::Cuda;
  if (Name == "cpu")
    return TensorMove::Cpu;
  return TensorMove::None;
}

/// `x.quantile(0.9)`: a scalar q and no dim reduce every element.
static bool isScalarQuantile(const CallExpr &Call) {
  const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call);
  if (!Member || !isNamed(Member->getMethodDecl(), {"quantile", "nanquantile"}) ||
      Call.getNumArgs() == 0 ||
      !Call.getArg(0)->IgnoreImplicit()->getType()->isRealFloatingType())
    return false;
  return llvm::all_of(llvm::drop_begin(Call.arguments()), [](const Expr *Arg) {
    return isa<CXXDefaultArgExpr>(Arg);
  });
}

bool isFullReduction(const CallExpr &Call) {
  const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call);
  if (!Member || !isTensorMethod(Member->getMethodDecl()) ||
      !isNamed(Member->getMethodDecl(),
               {"sum", "mean", "max", "min", "prod", "norm", "all", "any",
                "std", "var", "amax", "amin", "logsumexp", "nansum"}))
    return isScalarQuantile(Call);
  return llvm::none_of(Call.arguments(), [](const Expr *Arg) {
    return !isa<CXXDefaultArgExpr>(Arg);
  });
}

/// Whether \p E holds an integer index: an integral expression, directly or
/// as what a `TensorIndex` of an `index({...})` list is built from.
static bool holdsIntegerIndex(const Expr *E) {
  E = E->IgnoreImplicit();
  if (E->getType()->isIntegralOrEnumerationType())
    return true;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
    return llvm::any_of(Construct->arguments(), holdsIntegerIndex);
  if (const auto *List = dyn_cast<InitListExpr>(E))
    return llvm::any_of(List->inits(), holdsIntegerIndex);
  if (const auto *StdList = dyn_cast<CXXStdInitializerListExpr>(E))
    return holdsIntegerIndex(StdList->getSubExpr());
  if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(E))
    return holdsIntegerIndex(Temporary->getSubExpr());
  return false;
}

bool mayDropToZeroDim(const CallExpr &Call) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Call.getDirectCallee());
  if (!Method ||
      !isTensorType(QualType(Method->getParent()->getTypeForDecl(), 0)) ||
      !(Method->getOverloadedOperator() == OO_Subscript ||
        isNamed(Method, {"select", "index"})))
    return false;
  // `x[mask]`, `x.index({idx, Slice()})` keep their dimensions.
  return llvm::any_of(Call.arguments(), [&](const Expr *Arg) {
    return Arg != (isa<CXXOperatorCallExpr>(Call) ? Call.getArg(0) : nullptr) &&
           holdsIntegerIndex(Arg);
  });
}

bool isFromBlob(const FunctionDecl *Fn) {
  return isNamed(Fn, {"from_blob"}) && isLibTorchInternal(Fn);
}

bool isForwardMethod(const CXXMethodDecl *Method) {
  return isNamed(Method, {"forward"}) && isModuleClass(Method->getParent());
}

const CXXMethodDecl *forwardMethodOf(const CXXRecordDecl &Module) {
  const CXXMethodDecl *Found = nullptr;
  for (const CXXMethodDecl *Method : Module.methods())
    if (isForwardMethod(Method)) {
      if (Found)
        return nullptr;
      Found = Method;
    }
  return Found;
}

bool isInPlaceMethod(const CXXMethodDecl *Method) {
  if (!Method ||
      !isTensorType(QualType(Method->getParent()->getTypeForDecl(), 0)))
    return false;
  if (Method->isOverloadedOperator())
    return Method->getOverloadedOperator() != OO_Equal &&
           BinaryOperator::isCompoundAssignmentOp(
               BinaryOperator::getOverloadedOpcode(
                   Method->getOverloadedOperator()));
  return Method->getDeclName().isIdentifier() &&
         Method->getName().ends_with("_");
}

bool isParameterAccessor(const CXXMethodDecl *Method) {
  return Method && isModuleClass(Method->getParent()) &&
         isNamed(Method, {"parameters", "named_parameters", "buffers",
                          "named_buffers"});
}

bool isRequiresGradSetter(const CXXMethodDecl *Method) {
  return isTensorMethod(Method) &&
         isNamed(Method, {"requires_grad_", "set_requires_grad"});
}

bool isOptionsAccessor(const CXXMethodDecl *Method) {
  return isTensorMethod(Method) && isNamed(Method, {"options"});
}

bool isDeviceAccessor(const CXXMethodDecl *Method) {
  return isTensorMethod(Method) && isNamed(Method, {"device"});
}

OptionsSetter optionsSetterOf(const FunctionDecl *Fn) {
  if (!Fn || !isLibTorchInternal(Fn))
    return OptionsSetter::Other;
  if (isNamed(Fn, {"device"}))
    return OptionsSetter::Device;
  if (isNamed(Fn, {"requires_grad"}))
    return OptionsSetter::RequiresGrad;
  return OptionsSetter::Other;
}

bool isComparison(const FunctionDecl *Fn) {
  if (!Fn)
    return false;
  if (Fn->isOverloadedOperator())
    return Fn->getOverloadedOperator() == OO_EqualEqual ||
           Fn->getOverloadedOperator() == OO_ExclaimEqual;
  return isNamed(Fn, {"eq", "ne"}) && isLibTorchInternal(Fn);
}

} // namespace clang::tidy::torch_tidy::api
