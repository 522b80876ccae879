//===--- HostTensors.cpp - Tensors known to be on the CPU -----------------===//

#include "HostTensors.h"
#include "TorchApi.h"
#include "utils/AstHelpers.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::torch_tidy::api {

bool namesTheCpu(const Expr *E) {
  while (E) {
    E = utils::ignoreTemporaries(E);
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      return isAcceleratorConstant(Ref->getDecl()) == std::optional<bool>(false);
    if (const auto *Literal = dyn_cast<StringLiteral>(E))
      return isAcceleratorString(Literal->getString()) ==
             std::optional<bool>(false);
    const FunctionDecl *Builder = nullptr;
    const Expr *First = nullptr;
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      Builder = Construct->getConstructor();
      First = Construct->getNumArgs() ? Construct->getArg(0) : nullptr;
    } else if (const auto *Call = dyn_cast<CallExpr>(E)) {
      Builder = Call->getDirectCallee();
      First = Call->getNumArgs() ? Call->getArg(0) : nullptr;
    }
    if (!Builder || !isDeviceBuilder(Builder))
      return false;
    E = First;
  }
  return false;
}

/// Whether the options \p Options of a factory leave the device unsaid, or
/// say the CPU: a dtype, a layout, requires_grad. A device variable, another
/// tensor's options or any call of the program may name an accelerator.
static bool optionsKeepTheCpu(const Expr &Options) {
  llvm::SmallVector<const Stmt *, 16> Work = {&Options};
  while (!Work.empty()) {
    const Stmt *Current = Work.pop_back_val();
    if (!Current)
      continue;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Current)) {
      if (std::optional<bool> Accelerator = isAcceleratorConstant(Ref->getDecl()))
        if (*Accelerator)
          return false;
      if (isa<VarDecl>(Ref->getDecl()) &&
          (namesADevice(Ref->getType()) || isTensorOptionsType(Ref->getType()) ||
           isTensorType(Ref->getType())))
        return false;
    } else if (const auto *Literal = dyn_cast<StringLiteral>(Current)) {
      if (isAcceleratorString(Literal->getString()) != std::optional<bool>(false))
        return false;
    } else if (const auto *Call = dyn_cast<CallExpr>(Current)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee || !isLibTorchInternal(Callee))
        return false;
    }
    llvm::append_range(Work, Current->children());
  }
  return true;
}

/// The tensor operands of a LibTorch call: its object and tensor arguments.
static llvm::SmallVector<const Expr *, 4> tensorOperands(const CallExpr &Call) {
  llvm::SmallVector<const Expr *, 4> Operands;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call))
    Operands.push_back(Member->getImplicitObjectArgument());
  for (const Expr *Arg : Call.arguments())
    if (!isa<CXXDefaultArgExpr>(Arg) && isTensorType(Arg->getType()))
      Operands.push_back(Arg);
  return Operands;
}

/// Whether the LibTorch call \p Call returns a tensor on the CPU.
static bool computesOnTheCpu(const CallExpr &Call, utils::ValueOrigins &Origins,
                             unsigned Depth) {
  const FunctionDecl *Fn = Call.getDirectCallee();
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call)) {
    llvm::StringRef Name = Fn->getDeclName().isIdentifier() ? Fn->getName() : "";
    if (Name == "cpu")
      return true;
    if (Name == "to") {
      if (Member->getNumArgs() == 0)
        return false;
      if (namesTheCpu(Member->getArg(0)))
        return true;
      // `x.to(torch::kFloat)` keeps x's device.
      const auto *Type = Member->getArg(0)->getType()->getAs<EnumType>();
      return Type && Type->getDecl()->getName() == "ScalarType" &&
             isOnTheCpu(*Member->getImplicitObjectArgument(), Origins,
                        Depth - 1);
    }
    if (Name == "cuda")
      return false;
  }
  OpKind Kind = classifyFunction(Fn);
  bool HasOptions = false;
  for (const Expr *Arg : Call.arguments()) {
    if (isa<CXXDefaultArgExpr>(Arg))
      continue;
    if (isTensorOptionsType(Arg->getType()) || namesADevice(Arg->getType())) {
      HasOptions = true;
      if (!optionsKeepTheCpu(*Arg))
        return false;
    }
  }
  // No device in its options: LibTorch's default is the CPU, and from_blob
  // wraps host memory there.
  if (Kind == OpKind::Factory ||
      (Fn->getDeclName().isIdentifier() && Fn->getName() == "from_blob"))
    return true;
  llvm::SmallVector<const Expr *, 4> Operands = tensorOperands(Call);
  if (Operands.empty() || (HasOptions && Kind != OpKind::FactoryLike &&
                           isa<CXXMemberCallExpr>(Call)))
    return false;
  for (const Expr *Operand : Operands)
    if (!isOnTheCpu(*Operand, Origins, Depth - 1))
      return false;
  return true;
}

bool isOnTheCpu(const Expr &E, utils::ValueOrigins &Origins, unsigned Depth) {
  if (Depth == 0)
    return false;
  const Expr *Bare = utils::ignoreTemporaries(&E);
  if (const auto *Call = dyn_cast<CallExpr>(Bare)) {
    const FunctionDecl *Fn = Call->getDirectCallee();
    if (Fn && isLibTorchInternal(Fn))
      return isTensorType(Call->getType()) &&
             computesOnTheCpu(*Call, Origins, Depth);
  }
  std::optional<std::vector<const Expr *>> Values = Origins.of(*Bare);
  // A torch::data batch's field that the file never writes: what the
  // DataLoader yields, on the CPU.
  if (const auto *Field = dyn_cast<MemberExpr>(Bare);
      Field && !Values && isDataExample(Field->getBase()->getType()))
    return true;
  if (!Values || Values->empty())
    return false;
  for (const Expr *Value : *Values)
    if (!isOnTheCpu(*Value, Origins, Depth - 1))
      return false;
  return true;
}

} // namespace clang::tidy::torch_tidy::api
