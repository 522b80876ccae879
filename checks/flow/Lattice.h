//===--- Lattice.h - The abstract values of the device dataflow -----------===//
//
// What the analysis knows of a tensor: the device it is on (CPU, maybe an
// accelerator, or unknown), whether it is 0-dim, whether it is a leaf that
// requires grad. Unknown is the top of the lattice: two paths that disagree
// meet there, and the analysis stays quiet about it. An empty sequence of
// tensors is the bottom: what its first element is decides.
//
// Where a value came from (its provenance: the factory, batch field or move
// that decided it) travels with it for the messages, but is not part of the
// lattice: two values that differ only in provenance are equal, so the
// fixpoint does not depend on which path was seen first.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_FLOW_LATTICE_H
#define TORCH_TIDY_CHECKS_FLOW_LATTICE_H

#include "clang/AST/Expr.h"

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
  /// The output of a module moved with `Module::to`, or what its forward()
  /// sees: its registered members and its inputs.
  ModuleOutput,
};

struct TensorValue {
  // ---- The lattice ----
  Place Device = Place::Unknown;
  bool ZeroDim = false;
  bool RequiresGradLeaf = false;
  /// The device is an accelerator on some runs only (a variable, a ternary on
  /// torch::cuda::is_available()).
  bool MaybeAccelerator = false;
  /// A sequence of tensors with no element yet: the bottom.
  bool EmptySequence = false;

  // ---- Provenance, not part of the lattice ----
  Origin From = Origin::None;
  /// The factory call, batch field or move that decided the device.
  const Expr *Source = nullptr;
  /// For an accelerator: the device expression (`device`, `torch::kCUDA`).
  const Expr *DeviceExpr = nullptr;

  static TensorValue unknown() { return TensorValue(); }
  static TensorValue emptySequence() {
    TensorValue Value;
    Value.EmptySequence = true;
    return Value;
  }
  static TensorValue cpu() {
    TensorValue Value;
    Value.Device = Place::Cpu;
    return Value;
  }

  bool isUnknown() const { return Device == Place::Unknown && !EmptySequence; }

  /// Equality in the lattice: provenance aside.
  bool operator==(const TensorValue &Other) const {
    return Device == Other.Device && ZeroDim == Other.ZeroDim &&
           RequiresGradLeaf == Other.RequiresGradLeaf &&
           MaybeAccelerator == Other.MaybeAccelerator &&
           EmptySequence == Other.EmptySequence;
  }
  bool operator!=(const TensorValue &Other) const { return !(*this == Other); }
};

/// The least upper bound: where two paths disagree on the device, unknown.
/// The provenance of \p A is kept where both agree on it.
TensorValue join(const TensorValue &A, const TensorValue &B);

/// What a device expression means: `device`, `torch::kCUDA`, `"cpu"`.
struct DeviceValue {
  Place Device = Place::Unknown;
  /// The expression that names it, for messages and fix-its.
  const Expr *Where = nullptr;
  bool Maybe = false;
};

/// What is known of a torch::nn::Module instance: the device its registered
/// parameters and buffers are on after the last `Module::to`.
struct ModuleValue {
  Place Device = Place::Unknown;
  DeviceValue Target;
  /// The `Module::to` call, for messages (provenance).
  const Expr *MovedAt = nullptr;

  bool operator==(const ModuleValue &Other) const {
    return Device == Other.Device && Target.Maybe == Other.Target.Maybe;
  }
  bool operator!=(const ModuleValue &Other) const { return !(*this == Other); }
};

/// Two paths that disagree on a module's device leave it unknown.
ModuleValue join(const ModuleValue &A, const ModuleValue &B);

/// What a module moved to an accelerator computes and holds: its outputs
/// and registered members are on its device.
TensorValue onModuleDevice(const ModuleValue &Module);

/// A tensor computed from \p From (a view, a reduction, an activation): on
/// its device, 0-dim when \p ZeroDim or when \p From is.
TensorValue derived(const TensorValue &From, bool ZeroDim);

} // namespace clang::tidy::torch_tidy::flow

#endif // TORCH_TIDY_CHECKS_FLOW_LATTICE_H
