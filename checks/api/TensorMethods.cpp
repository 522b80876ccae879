//===--- TensorMethods.cpp - What the dataflow asks of LibTorch's names ---===//

#include "TensorMethods.h"
#include "TorchApi.h"
#include "utils/AstHelpers.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::torch_tidy::api {

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
  if (!Member || !utils::isNamedOneOf(Member->getMethodDecl(), {"quantile", "nanquantile"}) ||
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
      !utils::isNamedOneOf(Member->getMethodDecl(),
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
        utils::isNamedOneOf(Method, {"select", "index"})))
    return false;
  // `x[mask]`, `x.index({idx, Slice()})` keep their dimensions.
  return llvm::any_of(Call.arguments(), [&](const Expr *Arg) {
    return Arg != (isa<CXXOperatorCallExpr>(Call) ? Call.getArg(0) : nullptr) &&
           holdsIntegerIndex(Arg);
  });
}

bool isFromBlob(const FunctionDecl *Fn) {
  return utils::isNamedOneOf(Fn, {"from_blob"}) && isLibTorchInternal(Fn);
}

bool isForwardMethod(const CXXMethodDecl *Method) {
  return utils::isNamedOneOf(Method, {"forward"}) && isModuleClass(Method->getParent());
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
         utils::isNamedOneOf(Method, {"parameters", "named_parameters", "buffers",
                          "named_buffers"});
}

bool isRequiresGradSetter(const CXXMethodDecl *Method) {
  return isTensorMethod(Method) &&
         utils::isNamedOneOf(Method, {"requires_grad_", "set_requires_grad"});
}

bool isOptionsAccessor(const CXXMethodDecl *Method) {
  return isTensorMethod(Method) && utils::isNamedOneOf(Method, {"options"});
}

bool isDeviceAccessor(const CXXMethodDecl *Method) {
  return isTensorMethod(Method) && utils::isNamedOneOf(Method, {"device"});
}

OptionsSetter optionsSetterOf(const FunctionDecl *Fn) {
  if (!Fn || !isLibTorchInternal(Fn))
    return OptionsSetter::Other;
  if (utils::isNamedOneOf(Fn, {"device"}))
    return OptionsSetter::Device;
  if (utils::isNamedOneOf(Fn, {"requires_grad"}))
    return OptionsSetter::RequiresGrad;
  return OptionsSetter::Other;
}

bool isComparison(const FunctionDecl *Fn) {
  if (!Fn)
    return false;
  if (Fn->isOverloadedOperator())
    return Fn->getOverloadedOperator() == OO_EqualEqual ||
           Fn->getOverloadedOperator() == OO_ExclaimEqual;
  return utils::isNamedOneOf(Fn, {"eq", "ne"}) && isLibTorchInternal(Fn);
}

} // namespace clang::tidy::torch_tidy::api
