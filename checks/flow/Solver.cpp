//===--- Solver.cpp - A worklist fixpoint over a function's CFG -----------===//

#include "Solver.h"
#include "clang/Analysis/Analyses/PostOrderCFGView.h"
#include "clang/Analysis/FlowSensitive/DataflowWorklist.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::torch_tidy::flow {

/// Joins \p Exit into the entry state of \p Succ; true when that changed it.
static bool propagate(SolverResult &Result, const CFGBlock &Succ,
                      const State &Exit) {
  auto [It, Inserted] = Result.Entry.try_emplace(&Succ, Exit);
  if (Inserted)
    return true;
  State Joined = join(It->second, Exit);
  if (Joined == It->second)
    return false;
  It->second = std::move(Joined);
  return true;
}

/// The blocks of the natural loop(s) headed by \p Head: those that reach a
/// back edge's source without passing through \p Head. (Reaching the head
/// is not enough: in a nested loop the inner loop's exit reaches it too,
/// through the outer loop.)
static llvm::DenseSet<const CFGBlock *>
loopBody(const CFGBlock &Head, llvm::ArrayRef<const CFGBlock *> BackEdgeSources) {
  llvm::DenseSet<const CFGBlock *> Body = {&Head};
  llvm::SmallVector<const CFGBlock *, 16> Work(BackEdgeSources.begin(),
                                               BackEdgeSources.end());
  while (!Work.empty()) {
    const CFGBlock *Block = Work.pop_back_val();
    if (!Body.insert(Block).second)
      continue;
    for (const CFGBlock *Pred : Block->preds())
      if (Pred)
        Work.push_back(Pred);
  }
  return Body;
}

SolverResult firstIteration(const CFG &Graph, const State &Entry,
                            BlockTransfer Transfer) {
  SolverResult Result;
  Result.Entry[&Graph.getEntry()] = Entry;
  // clang's own traversal: it skips the null successors that the CFG hands
  // out for pruned edges (`if (false)`, code after `while (true)`).
  PostOrderCFGView Order(&Graph);
  llvm::DenseMap<const CFGBlock *, unsigned> Position;
  for (const CFGBlock *Block : Order)
    Position.try_emplace(Block, Position.size());
  for (const CFGBlock *Block : Order) {
    auto It = Result.Entry.find(Block);
    if (It == Result.Entry.end())
      continue;
    State Current = It->second;
    Transfer(*Block, Current);
    ++Result.Visits;
    unsigned Here = Position.lookup(Block);
    // An edge to a block earlier in the order is a loop's back edge: it
    // waits for the fixpoint. So does the exit of a loop: past it, the
    // first iteration is the run where the loop does not run at all.
    llvm::SmallVector<const CFGBlock *, 2> BackEdgeSources;
    for (const CFGBlock *Pred : Block->preds())
      if (Pred && Position.lookup(Pred) >= Here)
        BackEdgeSources.push_back(Pred);
    llvm::DenseSet<const CFGBlock *> Body;
    if (!BackEdgeSources.empty())
      Body = loopBody(*Block, BackEdgeSources);
    for (const CFGBlock *Succ : Block->succs())
      if (Succ && Position.lookup(Succ) > Here &&
          (BackEdgeSources.empty() || Body.contains(Succ)))
        propagate(Result, *Succ, Current);
  }
  return Result;
}

SolverResult solveToFixpoint(const CFG &Graph, const State &Entry,
                             BlockTransfer Transfer, const SolverResult *Start,
                             unsigned VisitsPerBlock) {
  SolverResult Result;
  if (Start)
    Result.Entry = Start->Entry;
  Result.Entry[&Graph.getEntry()] = Entry;
  PostOrderCFGView Order(&Graph);
  ForwardDataflowWorklist Worklist(Graph, &Order);
  for (const CFGBlock *Block : Order)
    if (Result.Entry.count(Block))
      Worklist.enqueueBlock(Block);
  const unsigned Bound = VisitsPerBlock * Graph.getNumBlockIDs() + 16;
  while (const CFGBlock *Block = Worklist.dequeue()) {
    if (Result.Visits == Bound) {
      Result.BoundHit = true;
      break;
    }
    ++Result.Visits;
    State Current = Result.Entry.find(Block)->second;
    Transfer(*Block, Current);
    for (const CFGBlock *Succ : Block->succs())
      if (Succ && propagate(Result, *Succ, Current))
        Worklist.enqueueBlock(Succ);
  }
  return Result;
}

} // namespace clang::tidy::torch_tidy::flow
