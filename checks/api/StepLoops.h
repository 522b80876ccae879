//===--- StepLoops.h - Which loops run training steps -----------*- C++ -*-===//
//
// A training program nests its loops: epochs around batches, the batches
// running the model's steps. What runs once per iteration of the outer loop
// runs once per epoch, not once per step.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_CHECKS_API_STEPLOOPS_H
#define TORCH_TIDY_CHECKS_API_STEPLOOPS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

namespace clang::tidy::torch_tidy::api {

/// Whether running \p Root executes a loop whose iterations run a model step
/// (a module forward, a backward, an optimizer step): \p Root then runs whole
/// training or evaluation loops, e.g. once per epoch. A module's own loops
/// (over its layers, in forward) are part of one step, and a loop that runs
/// a backward or an optimizer step in its own iteration is a loop of steps,
/// whatever its inner loops do (an RL rollout before each update).
bool runsStepLoops(const Stmt &Root, ASTContext &Ctx);

} // namespace clang::tidy::torch_tidy::api

#endif // TORCH_TIDY_CHECKS_API_STEPLOOPS_H
