//===--- Solver.h - A worklist fixpoint over a function's CFG -------------===//
//
// Forward dataflow to a fixpoint: each block's entry state is the join of
// its predecessors' exit states. States only rise in a lattice of finite
// height, so the worklist empties; a bound on block visits keeps a
// pathological function linear, and when it is hit the solver says so (the
// caller then trusts nothing of the function: precision first).
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_FLOW_SOLVER_H
#define TORCH_TIDY_CHECKS_FLOW_SOLVER_H

#include "State.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace clang::tidy::torch_tidy::flow {

struct SolverResult {
  /// The entry state of every reachable block.
  llvm::DenseMap<const CFGBlock *, State> Entry;
  /// How many times a block was interpreted.
  unsigned Visits = 0;
  /// The visit bound stopped the solver before the fixpoint.
  bool BoundHit = false;
};

/// Interprets one block: \p S is its entry state on the way in, its exit
/// state on the way out.
using BlockTransfer = llvm::function_ref<void(const CFGBlock &Block, State &S)>;

/// The first iteration of every loop: blocks in reverse post-order, each
/// entered with the join of the predecessors seen so far (back edges not
/// yet), and nothing past a loop. What conflicts there conflicts on a real
/// run, before the joins at loop heads lose precision.
SolverResult firstIteration(const CFG &Graph, const State &Entry,
                            BlockTransfer Transfer);

/// The fixpoint, starting from \p Start's states (or from the entry alone).
/// At most \p VisitsPerBlock visits per block on average.
SolverResult solveToFixpoint(const CFG &Graph, const State &Entry,
                             BlockTransfer Transfer,
                             const SolverResult *Start = nullptr,
                             unsigned VisitsPerBlock = 16);

} // namespace clang::tidy::torch_tidy::flow

#endif // TORCH_TIDY_CHECKS_FLOW_SOLVER_H
