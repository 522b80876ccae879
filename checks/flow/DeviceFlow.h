//===--- DeviceFlow.h - Which device each tensor of a function is on ------===//
//
// Interprets a function body over its clang::CFG with one abstract value per
// tensor-valued local, parameter and field of `this`: the device it is on
// (CPU, maybe an accelerator, unknown), whether it is 0-dim, whether it is a
// leaf that requires grad, and where that came from. Operations whose device
// rule the tensors break (checks/api's OpKind) become Conflicts, classified by
// root cause so that each is reported by exactly one rule. Unknown stays
// quiet: a conflict needs one operand known on the CPU and one that may be on
// an accelerator.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_FLOW_DEVICEFLOW_H
#define TORCH_TIDY_CHECKS_FLOW_DEVICEFLOW_H

#include "api/TorchApi.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include <optional>
#include <vector>

namespace clang::tidy::torch_tidy::flow {

enum class Place { Unknown, Cpu, Accelerator };

/// Why a tensor is where it is.
enum class Origin {
  None,
  /// A factory with no device in its options: always on the CPU.
  FactoryWithoutDevice,
  /// A field of a torch::data::Example: the DataLoader yields CPU tensors.
  DataBatch,
  /// The result of `.to()`, `.cuda()` or `.cpu()`.
  Moved,
  /// The output of a module moved with `Module::to`.
  ModuleOutput,
};

struct TensorValue {
  Place Device = Place::Unknown;
  bool ZeroDim = false;
  bool RequiresGradLeaf = false;
  Origin From = Origin::None;
  /// The factory call, batch field or move that decided the device.
  const Expr *Source = nullptr;
  /// For an accelerator: the device expression (`device`, `torch::kCUDA`).
  const Expr *DeviceExpr = nullptr;
  /// The device is an accelerator on some runs only (a variable, a ternary on
  /// torch::cuda::is_available()).
  bool MaybeAccelerator = false;
  /// A sequence of tensors with no element yet: what its first element is
  /// decides (the identity of the join).
  bool EmptySequence = false;

  bool operator==(const TensorValue &Other) const;
  bool operator!=(const TensorValue &Other) const { return !(*this == Other); }
};

struct Conflict {
  enum Kind { FactoryWithoutDevice, UnmovedTarget, UnmovedInput, Mismatch };
  Kind Cause;
  api::OpKind Op;
  /// The operation where the devices meet.
  const Expr *Sink;
  /// The operand on the CPU, and its value.
  const Expr *CpuOperand;
  TensorValue Cpu;
  /// The operand that may be on an accelerator, and its value.
  const Expr *AcceleratorOperand;
  TensorValue Accelerator;
  /// UnmovedInput: the `Module::to` call. UnmovedTarget: the move of the
  /// batch's input, if one was seen.
  const Expr *RelatedMove = nullptr;
  /// UnmovedInput: the module.
  const ValueDecl *Module = nullptr;
  /// The operation's tensor operands (its object first, list elements one
  /// by one): how many, and where the CPU and the accelerator operand are.
  unsigned Operands = 0;
  unsigned CpuPosition = 0;
  unsigned AcceleratorPosition = 0;
};

/// `.to()`/`.cuda()` applied to a leaf that requires grad.
struct LeafMove {
  const CXXMemberCallExpr *Move;
  TensorValue Leaf;
  /// The variable the moved tensor is stored in, if any.
  const VarDecl *Result = nullptr;
};

/// `x.data_ptr<T>()`, `x.data<T>()`, `x.accessor<T, N>()`: a raw view of a
/// tensor's memory, with what is known of the tensor.
struct PointerTake {
  const CXXMemberCallExpr *Call;
  TensorValue Tensor;
  /// For a pointer into a temporary copy (`x.cpu().data_ptr<T>()`): the
  /// conversion call and the tensor it copies.
  const CXXMemberCallExpr *Temporary = nullptr;
  TensorValue Copied;
};

/// `torch::from_blob(ptr, sizes, options)` and the device of its options
/// (Place::Cpu when the options name none).
struct BlobWrap {
  const CallExpr *Call;
  TensorValue Options;
};

/// What a call site passes to a function of this translation unit: the
/// arguments whose device is known. The callee is analysed in that context
/// (top-down), so that a helper called with a tensor on a GPU sees it there.
struct CallContext {
  /// The call sites from the outermost caller to this call.
  std::vector<const CallExpr *> Chain;
  /// The arguments with a known device, and their values at the call.
  std::vector<std::pair<const Expr *, TensorValue>> Arguments;
  /// A forward() of a module moved to an accelerator: the module, and the
  /// device its registered members are on.
  const ValueDecl *Module = nullptr;
  TensorValue ModuleDevice;
};

struct FunctionFacts {
  /// Set for the facts of a function analysed in the context of a call.
  std::optional<CallContext> Context;
  std::vector<Conflict> Conflicts;
  std::vector<LeafMove> LeafMoves;
  std::vector<PointerTake> PointerTakes;
  std::vector<BlobWrap> BlobWraps;
  /// The join of what the function returns, for callers in the same file.
  TensorValue Returned;
  /// Factories without a device whose tensor is not 0-dim, and whether the
  /// function puts anything on an accelerator (for the Strict option).
  std::vector<const CallExpr *> DevicelessFactories;
  bool UsesAccelerator = false;
};

/// The facts of \p Fn, computed once per function and translation unit.
const FunctionFacts &analyze(const FunctionDecl &Fn, ASTContext &Ctx);

/// The facts of the functions analysed in the context of a call, in the order
/// they were computed. A conflict found only there depends on what the
/// caller passed: rules report it with the call chain.
std::vector<const FunctionFacts *> contextFacts(const ASTContext &Ctx);

/// Forgets the facts of the previous translation unit; called by every check
/// that reads them at the start of each translation unit.
void resetTranslationUnit();

/// Whether the main file names an accelerator anywhere (kCUDA, "cuda",
/// .cuda(), torch::cuda::is_available()): a program that never does has no
/// device findings.
bool namesAccelerator(ASTContext &Ctx);

/// How a finding names the device an operand may be on: `'device' (which may
/// be a GPU)`.
std::string describeDevice(const TensorValue &Value, const ASTContext &Ctx);

} // namespace clang::tidy::torch_tidy::flow

#endif // TORCH_TIDY_CHECKS_FLOW_DEVICEFLOW_H
