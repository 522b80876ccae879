//===--- LiveLocals.h - Forgetting the locals nothing reads again ---------===//
//
// A long function keeps one state per CFG block, so a state that carries
// every local ever declared makes memory grow with blocks x locals. A local
// that no later statement reads cannot change a finding, and is dropped from
// the state leaving a block. Locals read other than by name stay: parameters,
// references, structured bindings, lambda captures, and the locals named in
// a range-for's range or in a device's or options' initialiser.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_FLOW_LIVELOCALS_H
#define TORCH_TIDY_CHECKS_FLOW_LIVELOCALS_H

#include "State.h"
#include "utils/BlockLiveness.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::torch_tidy::flow {

class LiveLocals {
public:
  LiveLocals(const CFG &Graph, const Stmt &Body);

  /// Drops from \p S the locals that are dead at the end of \p Block.
  void forgetDead(const CFGBlock &Block, State &S) const;

private:
  bool mayForget(const ValueDecl *D) const;

  utils::BlockLiveness Liveness;
  llvm::DenseSet<const VarDecl *> ReadIndirectly;
};

} // namespace clang::tidy::torch_tidy::flow

#endif // TORCH_TIDY_CHECKS_FLOW_LIVELOCALS_H
