//===--- ReplayedOperation.cpp - The operations a plan replays ------------===//

#include "ReplayedOperation.h"
#include "api/TorchApi.h"
#include "llvm/ADT/StringMap.h"

namespace clang::tidy::torch_tidy::plans {

namespace {

using Shape = OperandShape;

struct Replay {
  const char *Fn;
  std::vector<Shape> Operands;
};

/// LibTorch functions and tensor operators by name, with the plan's call
/// function and what each tensor operand must be.
const llvm::StringMap<Replay> &replays() {
  static const std::vector<Shape> Pair = {Shape::Broadcast, Shape::Broadcast};
  static const std::vector<Shape> Masks = {Shape::Mask, Shape::Mask};
  static const llvm::StringMap<Replay> Table = {
      // Element-wise operators and their functions.
      {"operator+", {"add", Pair}},
      {"operator-", {"sub", Pair}},
      {"operator*", {"mul", Pair}},
      {"operator/", {"div", Pair}},
      {"operator==", {"eq", Pair}},
      {"operator!=", {"ne", Pair}},
      {"operator<", {"lt", Pair}},
      {"operator<=", {"le", Pair}},
      {"operator>", {"gt", Pair}},
      {"operator>=", {"ge", Pair}},
      {"operator&", {"bitwise_and", Masks}},
      {"operator|", {"bitwise_or", Masks}},
      {"operator^", {"bitwise_xor", Masks}},
      {"add", {"add", Pair}},
      {"sub", {"sub", Pair}},
      {"mul", {"mul", Pair}},
      {"div", {"div", Pair}},
      {"true_divide", {"true_divide", Pair}},
      {"fmod", {"fmod", Pair}},
      {"remainder", {"remainder", Pair}},
      {"pow", {"pow", Pair}},
      {"eq", {"eq", Pair}},
      {"ne", {"ne", Pair}},
      {"lt", {"lt", Pair}},
      {"le", {"le", Pair}},
      {"gt", {"gt", Pair}},
      {"ge", {"ge", Pair}},
      {"minimum", {"minimum", Pair}},
      {"maximum", {"maximum", Pair}},
      {"atan2", {"atan2", Pair}},
      {"hypot", {"hypot", Pair}},
      {"logical_and", {"logical_and", Pair}},
      {"logical_or", {"logical_or", Pair}},
      {"where", {"where", {Shape::Mask, Shape::Broadcast, Shape::Broadcast}}},
      // In place: the first operand is the output.
      {"operator+=", {"add_", Pair}},
      {"operator-=", {"sub_", Pair}},
      {"operator*=", {"mul_", Pair}},
      {"operator/=", {"div_", Pair}},
      {"add_", {"add_", Pair}},
      {"sub_", {"sub_", Pair}},
      {"mul_", {"mul_", Pair}},
      {"div_", {"div_", Pair}},
      {"pow_", {"pow_", Pair}},
      // Linear algebra and indexing.
      {"mm", {"mm", {Shape::Matrix, Shape::Matrix}}},
      {"matmul", {"matmul", {Shape::Matrix, Shape::Matrix}}},
      {"bmm", {"bmm", {Shape::Batch, Shape::Batch}}},
      {"mv", {"mv", {Shape::Matrix, Shape::Vector}}},
      {"dot", {"dot", {Shape::Vector, Shape::Vector}}},
      {"index_select", {"index_select", {Shape::Table, Shape::Indices}}},
      // Losses: input, target.
      {"mse_loss", {"mse_loss", Pair}},
      {"l1_loss", {"l1_loss", Pair}},
      {"smooth_l1_loss", {"smooth_l1_loss", Pair}},
      {"huber_loss", {"huber_loss", Pair}},
      {"kl_div", {"kl_div", Pair}},
      {"cross_entropy", {"cross_entropy", {Shape::Logits, Shape::Classes}}},
      {"cross_entropy_loss",
       {"cross_entropy", {Shape::Logits, Shape::Classes}}},
      {"nll_loss", {"nll_loss", {Shape::Logits, Shape::Classes}}},
      {"binary_cross_entropy",
       {"binary_cross_entropy", {Shape::Probability, Shape::Probability}}},
      {"binary_cross_entropy_with_logits",
       {"binary_cross_entropy_with_logits", Pair}}};
  return Table;
}

/// The functional form of a loss module: CrossEntropyLossImpl's forward is
/// cross_entropy.
const char *functionalLoss(llvm::StringRef ModuleClass) {
  static const llvm::StringMap<const char *> Losses = {
      {"CrossEntropyLossImpl", "cross_entropy"},
      {"NLLLossImpl", "nll_loss"},
      {"MSELossImpl", "mse_loss"},
      {"L1LossImpl", "l1_loss"},
      {"SmoothL1LossImpl", "smooth_l1_loss"},
      {"HuberLossImpl", "huber_loss"},
      {"KLDivLossImpl", "kl_div"},
      {"BCELossImpl", "binary_cross_entropy"},
      {"BCEWithLogitsLossImpl", "binary_cross_entropy_with_logits"}};
  auto It = Losses.find(ModuleClass);
  return It == Losses.end() ? nullptr : It->second;
}

/// The name the replay table knows \p Sink by: the function's, or for a loss
/// module called as `criterion(out, target)` its functional form's.
std::string sinkName(const CallExpr &Sink) {
  const FunctionDecl *Callee = Sink.getDirectCallee();
  if (!Callee)
    return "";
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Sink);
      Op && Op->getOperator() == OO_Call) {
    const CXXRecordDecl *Module = api::heldModule(Op->getArg(0)->getType());
    const char *Loss = Module && api::isLibTorchInternal(Module)
                           ? functionalLoss(Module->getName())
                           : nullptr;
    return Loss ? Loss : "";
  }
  return Callee->getNameAsString();
}

} // namespace

std::optional<ReplayedCall> replayedCall(const CallExpr &Sink,
                                         unsigned TensorOperands) {
  std::string Name = sinkName(Sink);
  if (Name == "cat" || Name == "stack" || Name == "hstack" ||
      Name == "vstack") {
    if (TensorOperands < 2)
      return std::nullopt;
    return ReplayedCall{Name,
                        {Shape::Broadcast, Shape::Broadcast},
                        std::nullopt,
                        /*JoinsList=*/true};
  }
  if (Name == "lerp") {
    // lerp(start, end, weight): the weight is a tensor or a C++ scalar.
    if (TensorOperands == 3)
      return ReplayedCall{
          "lerp", {Shape::Broadcast, Shape::Broadcast, Shape::Broadcast}};
    if (TensorOperands == 2)
      return ReplayedCall{"lerp", {Shape::Broadcast, Shape::Broadcast}, 0.5};
    return std::nullopt;
  }
  // `cond_true.where(cond, other)` puts its operands in another order than
  // torch::where(cond, self, other).
  if (Name == "where" && isa<CXXMemberCallExpr>(Sink))
    return std::nullopt;
  auto It = replays().find(Name);
  if (It == replays().end() || It->second.Operands.size() != TensorOperands)
    return std::nullopt;
  return ReplayedCall{It->second.Fn, It->second.Operands};
}

/// Where a device argument puts the tensor: true for an accelerator (a
/// device variable may be one), false for the CPU; none when \p S names no
/// device.
static std::optional<bool> deviceNamedBy(const Stmt *S) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E))
    if (auto Constant = api::isAcceleratorConstant(Ref->getDecl()))
      return Constant;
  if (const auto *Literal = dyn_cast_or_null<StringLiteral>(E))
    return api::isAcceleratorString(Literal->getString());
  for (const Stmt *Child : S->children())
    if (Child)
      if (auto Device = deviceNamedBy(Child))
        return Device;
  if (E && api::namesADevice(E->getType()))
    return true;
  return std::nullopt;
}

std::optional<ReplayedMove> replayedMove(const CXXMemberCallExpr &Conversion) {
  const CXXMethodDecl *Method = Conversion.getMethodDecl();
  if (!Method || !Method->getDeclName().isIdentifier())
    return std::nullopt;
  llvm::StringRef Name = Method->getName();
  if (Name == "cuda")
    return ReplayedMove{"cuda", "accel"};
  if (Name == "cpu")
    return ReplayedMove{"cpu", "cpu"};
  if (Name != "to")
    return std::nullopt;
  for (const Expr *Arg : Conversion.arguments()) {
    QualType Type = Arg->getType();
    if (isa<CXXDefaultArgExpr>(Arg) ||
        !(api::namesADevice(Type) || api::isTensorOptionsType(Type)))
      continue;
    if (auto Accelerator = deviceNamedBy(Arg))
      return ReplayedMove{"to", *Accelerator ? "accel" : "cpu"};
  }
  return std::nullopt;
}

std::optional<std::string> replayedModule(const CXXRecordDecl *Module) {
  if (!Module || !api::isLibTorchInternal(Module))
    return std::nullopt;
  if (Module->getName() == "LinearImpl")
    return "linear";
  if (Module->getName() == "Conv2dImpl")
    return "conv2d";
  return std::nullopt;
}

} // namespace clang::tidy::torch_tidy::plans
