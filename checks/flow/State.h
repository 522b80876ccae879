//===--- State.h - What the dataflow knows at one program point -----------===//
//
// One abstract value per tensor-valued place the analysis tracks: a local or
// parameter, a field of `this`, a field of a local aggregate (`batch.x`), and
// containers (`std::vector`, `std::map`, `std::pair`, `std::tuple`, ...),
// whose value is the join of their elements. Modules are tracked by the
// variable or field that holds them. A place that is absent is unknown.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_FLOW_STATE_H
#define TORCH_TIDY_CHECKS_FLOW_STATE_H

#include "Lattice.h"
#include "clang/AST/Decl.h"
#include <map>
#include <string>
#include <utility>

namespace clang::tidy::torch_tidy::flow {

/// A tracked place: a variable or field of `this` (Member null), or a field
/// of a local aggregate (`batch.x`: Base `batch`, Member `x`).
struct Location {
  const ValueDecl *Base = nullptr;
  const ValueDecl *Member = nullptr;

  Location() = default;
  Location(const ValueDecl *Base, const ValueDecl *Member = nullptr)
      : Base(Base), Member(Member) {}
  bool operator<(const Location &O) const {
    return std::tie(Base, Member) < std::tie(O.Base, O.Member);
  }
  bool operator==(const Location &O) const {
    return Base == O.Base && Member == O.Member;
  }
};

struct State {
  std::map<Location, TensorValue> Tensors;
  std::map<const ValueDecl *, ModuleValue> Modules;

  TensorValue tensor(const Location &L) const {
    auto It = Tensors.find(L);
    return It == Tensors.end() ? TensorValue::unknown() : It->second;
  }
  const ModuleValue *module(const ValueDecl *D) const {
    auto It = Modules.find(D);
    return It == Modules.end() ? nullptr : &It->second;
  }
  /// Forgets every field of the local aggregate \p Base (it was assigned
  /// as a whole).
  void forgetMembers(const ValueDecl *Base);

  bool operator==(const State &O) const {
    return Tensors == O.Tensors && Modules == O.Modules;
  }
  bool operator!=(const State &O) const { return !(*this == O); }
};

/// The join of two states: a place known on one side only is unknown.
State join(const State &A, const State &B);

/// The abstract values of \p Entry and the kind of their causes (which
/// decides the rule that reports a finding), without the expressions that
/// caused them: two call contexts with the same key give the same facts.
std::string contextKey(const State &Entry);

} // namespace clang::tidy::torch_tidy::flow

#endif // TORCH_TIDY_CHECKS_FLOW_STATE_H
