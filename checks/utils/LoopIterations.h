//===--- LoopIterations.h - How often a statement runs in a loop -*- C++ -*-===//
//
// Generic questions about loops, for the rules that care about what happens
// on every iteration: which loop runs a statement (in its function, or
// through the calls of the translation unit that lead to it), and whether it
// runs on every iteration, on every k-th (`if (step % k == 0)`), or on some
// only. Knows nothing of LibTorch.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_UTILS_LOOPITERATIONS_H
#define TORCH_TIDY_CHECKS_UTILS_LOOPITERATIONS_H

#include "CallSites.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include <vector>

namespace clang::tidy::torch_tidy::utils {

/// The innermost `for`, `while`, `do` or range-`for` that runs \p S again on
/// each iteration, in \p S's function (not across a lambda's body). A `for`'s
/// init statement and a range-`for`'s range run once: not in that loop.
const Stmt *enclosingLoop(const Stmt &S, ASTContext &Ctx);

/// The statements a loop runs on each iteration: its body, and its condition
/// and increment (a range-`for`'s too).
bool isRepeatedPart(const Stmt &Loop, const Stmt &Part);

/// How often \p S runs when its region runs once.
enum class Recurrence {
  /// Each time, unless an earlier `continue`, `break` or `return` leaves.
  Every,
  /// Under a condition that tests a remainder: every k-th iteration.
  Periodic,
  /// Under any other condition that may change from one run to the next.
  Some,
};

/// How often \p S runs per iteration of \p Region, a loop that contains it
/// with no loop in between, or per call of the function whose body \p Region
/// is. In a loop, a condition that the loop cannot change (it reads only
/// variables declared before the loop and never modified in it, through
/// const methods) is taken each time or never: \p S counts as Every there.
Recurrence recurrence(const Stmt &S, const Stmt &Region, ASTContext &Ctx);

/// Whether \p Condition tests a remainder (`step % k == 0`): true on one
/// iteration in k.
bool isPeriodicCondition(const Expr &Condition);

/// A loop that runs \p S, and the calls that lead from the loop to \p S's
/// function (outermost first; empty when the loop is in that function).
struct LoopContext {
  const Stmt *Loop = nullptr;
  std::vector<const CallExpr *> Chain;
  /// How often \p S runs per iteration: the least of the recurrences along
  /// the chain.
  Recurrence Runs = Recurrence::Every;
};

/// The loops that run \p S: its enclosing loop, or else the loops around the
/// calls of its function in this translation unit (through up to \p Depth
/// functions that run it unconditionally or under conditions).
std::vector<LoopContext> loopsRunning(const Stmt &S, const CallSites &Calls,
                                      ASTContext &Ctx, unsigned Depth = 3);

} // namespace clang::tidy::torch_tidy::utils

#endif // TORCH_TIDY_CHECKS_UTILS_LOOPITERATIONS_H
