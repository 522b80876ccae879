//===--- ConflictPlan.cpp - The replay plan of a device conflict ----------===//

#include "ConflictPlan.h"
#include "plans/LiteralSizes.h"
#include "plans/PlanBuilder.h"
#include "plans/ReplayedOperation.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::torch_tidy::flow {

/// The sizes of an operand, when the source spells them.
static std::optional<std::vector<int64_t>>
knownSizes(const TensorValue &Value) {
  if (Value.ZeroDim)
    return std::vector<int64_t>();
  return plans::literalSizes(Value.Source);
}

/// \p Sizes, or the first of \p Others that has elements, or [4].
static std::vector<int64_t>
sizesOr(const std::optional<std::vector<int64_t>> &Sizes,
        std::initializer_list<const std::vector<int64_t> *> Others) {
  if (Sizes)
    return *Sizes;
  for (const std::vector<int64_t> *Other : Others)
    if (Other && !Other->empty())
      return *Other;
  return {4};
}

/// The module moved to the accelerator, fed the CPU input.
static bool addForward(plans::PlanBuilder &Plan, const ForwardInput &F) {
  auto Module = plans::replayedModule(api::heldModule(F.Module->getType()));
  if (!Module)
    return false;
  std::string Layer;
  std::vector<int64_t> Sizes;
  if (*Module == "linear") {
    Sizes = knownSizes(F.Input.Value).value_or(std::vector<int64_t>{2, 4});
    if (Sizes.empty() || Sizes.back() < 1)
      Sizes = {2, 4};
    Layer = Plan.linear(Sizes.back(), 2);
  } else {
    // conv2d: the channels are dimension 1 of a batch, 0 of one image.
    Sizes = knownSizes(F.Input.Value).value_or(std::vector<int64_t>{1, 3, 8, 8});
    if ((Sizes.size() != 3 && Sizes.size() != 4) ||
        Sizes[Sizes.size() - 3] < 1 || Sizes[Sizes.size() - 3] > 4096)
      Sizes = {1, 3, 8, 8};
    Layer = Plan.conv2d(Sizes[Sizes.size() - 3], 2);
  }
  Plan.moduleTo(Layer, "accel");
  Plan.forward(Layer, Plan.factory({"cpu", Sizes}));
  return true;
}

/// The tensor a plan passes as a call's operand of shape \p Shape, on
/// \p Device; \p Sizes are the source's, for the shapes that follow them.
static plans::TensorSpec operandSpec(plans::OperandShape Shape,
                                     std::string Device,
                                     std::vector<int64_t> Sizes) {
  using plans::OperandShape;
  switch (Shape) {
  case OperandShape::Broadcast:
    return {Device, Sizes};
  case OperandShape::Probability:
    return {Device, Sizes, "float32", "rand"};
  case OperandShape::Mask:
    return {Device, Sizes, "bool", "zeros"};
  case OperandShape::Matrix:
    return {Device, {4, 4}};
  case OperandShape::Batch:
    return {Device, {2, 4, 4}};
  case OperandShape::Vector:
    return {Device, {4}};
  case OperandShape::Logits:
  case OperandShape::Table:
    return {Device, {4, 3}};
  case OperandShape::Classes:
    return {Device, {4}, "int64", "zeros"};
  case OperandShape::Indices:
    return {Device, {2}, "int64", "zeros"};
  }
  llvm_unreachable("every operand shape is covered");
}

/// The two tensors that meet, in the call they meet in: the CPU operand
/// where the source has it, every other operand on the accelerator.
static bool addCall(plans::PlanBuilder &Plan, const Meeting &M) {
  auto Call = plans::replayedCall(*M.Sink, M.Operands.size());
  if (!Call)
    return false;
  unsigned CpuAt = M.CpuPosition, AcceleratorAt = M.AcceleratorPosition;
  if (Call->JoinsList) {
    CpuAt = M.CpuPosition < M.AcceleratorPosition ? 0 : 1;
    AcceleratorAt = 1 - CpuAt;
  }
  // Unknown sizes follow the other operand's, so that the two broadcast.
  auto CpuKnown = knownSizes(M.cpu().Value);
  auto AcceleratorKnown = knownSizes(M.accelerator().Value);
  std::vector<int64_t> CpuSizes =
      sizesOr(CpuKnown, {AcceleratorKnown ? &*AcceleratorKnown : nullptr});
  std::vector<int64_t> AcceleratorSizes =
      sizesOr(AcceleratorKnown, {&CpuSizes});
  std::vector<int64_t> OtherSizes =
      sizesOr(std::nullopt, {&AcceleratorSizes, &CpuSizes});
  nlohmann::json Args = nlohmann::json::array();
  for (unsigned I = 0; I < Call->Operands.size(); ++I) {
    bool OnCpu = I == CpuAt;
    const std::vector<int64_t> &Sizes = OnCpu              ? CpuSizes
                                        : I == AcceleratorAt ? AcceleratorSizes
                                                             : OtherSizes;
    Args.push_back(Plan.factory(operandSpec(Call->Operands[I],
                                            OnCpu ? "cpu" : "accel", Sizes)));
  }
  if (Call->TrailingScalar)
    Args.push_back(*Call->TrailingScalar);
  Plan.call(Call->Fn, std::move(Args));
  return true;
}

static nlohmann::json finish(plans::PlanBuilder &Plan, llvm::StringRef Check,
                             llvm::StringRef Description) {
  Plan.expect({{"kind", "device-mismatch"}, {"step", Plan.lastStep()}});
  return Plan.finish(Check, Description);
}

std::optional<nlohmann::json> meetingPlan(const Meeting &M,
                                          llvm::StringRef Check,
                                          llvm::StringRef Description) {
  plans::PlanBuilder Plan;
  if (!addCall(Plan, M))
    return std::nullopt;
  return finish(Plan, Check, Description);
}

std::optional<nlohmann::json> forwardInputPlan(const ForwardInput &F,
                                               llvm::StringRef Check,
                                               llvm::StringRef Description) {
  plans::PlanBuilder Plan;
  if (!addForward(Plan, F))
    return std::nullopt;
  return finish(Plan, Check, Description);
}

} // namespace clang::tidy::torch_tidy::flow
