//===--- Lattice.cpp - The abstract values of the device dataflow ---------===//

#include "Lattice.h"

namespace clang::tidy::torch_tidy::flow {

TensorValue join(const TensorValue &A, const TensorValue &B) {
  if (B.EmptySequence)
    return A;
  if (A.EmptySequence)
    return B;
  if (A.Device != B.Device || A.Device == Place::Unknown)
    return TensorValue::unknown();
  TensorValue Joined = A;
  Joined.ZeroDim = A.ZeroDim && B.ZeroDim;
  Joined.RequiresGradLeaf = A.RequiresGradLeaf && B.RequiresGradLeaf;
  Joined.MaybeAccelerator = A.MaybeAccelerator || B.MaybeAccelerator;
  if (A.From != B.From) {
    // Two causes: neither alone explains the value.
    Joined.From = Origin::None;
    Joined.Source = nullptr;
  }
  if (A.Device == Place::Cpu)
    Joined.DeviceExpr = nullptr;
  return Joined;
}

ModuleValue join(const ModuleValue &A, const ModuleValue &B) {
  return A == B ? A : ModuleValue();
}

TensorValue onModuleDevice(const ModuleValue &Module) {
  if (Module.Device != Place::Accelerator)
    return TensorValue::unknown();
  TensorValue Result;
  Result.Device = Place::Accelerator;
  Result.DeviceExpr = Module.Target.Where;
  Result.MaybeAccelerator = Module.Target.Maybe;
  Result.From = Origin::ModuleOutput;
  Result.Source = Module.MovedAt;
  return Result;
}

TensorValue derived(const TensorValue &From, bool ZeroDim) {
  TensorValue Result;
  Result.Device = From.Device;
  Result.DeviceExpr = From.DeviceExpr;
  Result.MaybeAccelerator = From.MaybeAccelerator;
  Result.ZeroDim = ZeroDim || From.ZeroDim;
  if (From.Device != Place::Unknown) {
    Result.From = From.From;
    Result.Source = From.Source;
  }
  return Result;
}

} // namespace clang::tidy::torch_tidy::flow
