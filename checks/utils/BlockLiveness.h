//===--- BlockLiveness.h - Locals a later statement may read --------------===//
//
// Which local variables a later statement may still read, at the end of each
// CFG block: a backward may-analysis over bit vectors. A variable counts as
// read wherever its name appears in a block (in a lambda's body too) and
// dies at its declaration, so the answer errs towards "live".
//
// clang's LiveVariables answers the same question per statement with
// persistent sets; on one 5,000-statement function (bench/run.sh --dataflow)
// it took 15 s and 1.4 GiB, which is why this exists.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_UTILS_BLOCKLIVENESS_H
#define TORCH_TIDY_CHECKS_UTILS_BLOCKLIVENESS_H

#include "clang/Analysis/CFG.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include <vector>

namespace clang::tidy::torch_tidy::utils {

/// The local variables \p S names, anywhere in it (a lambda's body too).
llvm::SmallVector<const VarDecl *, 8> localsNamedIn(const Stmt &S);

class BlockLiveness {
public:
  explicit BlockLiveness(const CFG &Graph);

  /// Whether a statement after \p Block may read \p Var. A variable the
  /// function never names is not live.
  bool isLiveAtExit(const CFGBlock &Block, const VarDecl *Var) const;

private:
  llvm::DenseMap<const VarDecl *, unsigned> Index;
  /// By block ID.
  std::vector<llvm::BitVector> LiveOut;
};

} // namespace clang::tidy::torch_tidy::utils

#endif // TORCH_TIDY_CHECKS_UTILS_BLOCKLIVENESS_H
