//===--- State.cpp - What the dataflow knows at one program point ---------===//

#include "State.h"

namespace clang::tidy::torch_tidy::flow {

void State::forgetMembers(const ValueDecl *Base) {
  for (auto It = Tensors.lower_bound(Location(Base, nullptr));
       It != Tensors.end() && It->first.Base == Base;)
    It = It->first.Member ? Tensors.erase(It) : std::next(It);
}

State join(const State &A, const State &B) {
  State Out;
  for (const auto &[Place, Value] : A.Tensors) {
    auto It = B.Tensors.find(Place);
    if (It == B.Tensors.end())
      continue; // unknown on the other path
    TensorValue Joined = join(Value, It->second);
    if (!Joined.isUnknown())
      Out.Tensors.emplace(Place, Joined);
  }
  for (const auto &[Decl, Value] : A.Modules) {
    auto It = B.Modules.find(Decl);
    if (It != B.Modules.end() && It->second == Value)
      Out.Modules.emplace(Decl, Value);
  }
  return Out;
}

/// A place of a context's state: the same declaration gives the same key.
static std::string keyOf(const ValueDecl *Decl) {
  return std::to_string(reinterpret_cast<uintptr_t>(Decl));
}

std::string contextKey(const State &Entry) {
  std::string Key;
  for (const auto &[Place, Value] : Entry.Tensors) {
    Key += keyOf(Place.Base);
    if (Place.Member)
      Key += "." + keyOf(Place.Member);
    Key += ":" + std::to_string(int(Value.Device)) +
           std::to_string(Value.ZeroDim) +
           std::to_string(Value.RequiresGradLeaf) +
           std::to_string(int(Value.From)) +
           std::to_string(Value.MaybeAccelerator) +
           std::to_string(Value.EmptySequence) + ";";
  }
  for (const auto &[Decl, Value] : Entry.Modules)
    Key += keyOf(Decl) + ":m" + std::to_string(int(Value.Device)) + ";";
  return Key;
}

} // namespace clang::tidy::torch_tidy::flow
