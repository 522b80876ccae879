//===--- ReplayedOperation.h - The operations a plan replays ----*- C++ -*-===//
//
// A plan may replay only the operation of its finding: a finding confirmed
// by the replay of another operation would be confirmed by nothing. These
// functions map the LibTorch operations of findings to the plan format's
// steps, and say "none" for any operation the format cannot express: such a
// finding gets no plan, and its verdict says that it is not replayable.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_PLANS_REPLAYEDOPERATION_H
#define TORCH_TIDY_CHECKS_PLANS_REPLAYEDOPERATION_H

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::torch_tidy::plans {

/// What a plan operand must be for the replayed function to accept it.
enum class OperandShape {
  Broadcast,   ///< float, of the sizes the source gives (element-wise ops)
  Probability, ///< float in [0, 1), of the sizes the source gives
  Mask,        ///< bool, of the sizes the source gives
  Matrix,      ///< float [4, 4]
  Batch,       ///< float [2, 4, 4]: a batch of matrices
  Vector,      ///< float [4]
  Logits,      ///< float [4, 3]: a batch of class scores
  Classes,     ///< int64 [4]: a batch of class indices
  Table,       ///< float [4, 3]: rows to select from
  Indices,     ///< int64 [2]: indices of rows
};

/// How a plan replays the LibTorch function where tensors meet.
struct ReplayedCall {
  std::string Fn; ///< The plan's call function.
  /// Its tensor arguments, in the order of the call's tensor operands.
  std::vector<OperandShape> Operands;
  /// lerp with a C++ scalar weight: that weight, after the tensors.
  std::optional<double> TrailingScalar;
  /// cat, stack, hstack, vstack: the plan joins just the two tensors that
  /// meet, in source order, however long the list.
  bool JoinsList = false;
};

/// The replay of \p Sink, an operation with \p TensorOperands tensor operands
/// (its object first, list elements one by one), or none when the plan format
/// has no call function that does what \p Sink does.
std::optional<ReplayedCall> replayedCall(const CallExpr &Sink,
                                         unsigned TensorOperands);

/// How a plan replays a tensor conversion between devices.
struct ReplayedMove {
  std::string Fn;     ///< "to", "cuda" or "cpu".
  std::string Target; ///< "accel" or "cpu".
  /// The device the moved tensor comes from: the other one.
  std::string origin() const { return Target == "cpu" ? "accel" : "cpu"; }
};

/// The replay of \p Conversion: `.cuda()`, `.cpu()`, or `.to(...)` with a
/// device (a device variable counts as an accelerator: the finding is about
/// the runs where it is one). None for other conversions (`.to(dtype)`,
/// `.to(other)`, `.hip()`, `toType`, ...).
std::optional<ReplayedMove> replayedMove(const CXXMemberCallExpr &Conversion);

/// The plan op whose forward is \p Module's: "linear" for torch::nn::Linear,
/// "conv2d" for torch::nn::Conv2d. None for any other module: the forward of
/// a user's module is user code, which the probe never runs.
std::optional<std::string> replayedModule(const CXXRecordDecl *Module);

} // namespace clang::tidy::torch_tidy::plans

#endif // TORCH_TIDY_CHECKS_PLANS_REPLAYEDOPERATION_H
