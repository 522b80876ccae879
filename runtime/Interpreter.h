//===--- Interpreter.h - Replays a plan against LibTorch --------*- C++ -*-===//
//
// Runs a validated replay plan step by step, using only a whitelist of
// LibTorch operations (never user code), and decides the plan's observable.
// This header does not include LibTorch.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_RUNTIME_INTERPRETER_H
#define TORCH_TIDY_RUNTIME_INTERPRETER_H

#include "runtime/Verdict.h"

#include <nlohmann/json.hpp>

#include <string>

namespace torch_tidy::runtime {

/// Replays \p Plan, which must have passed plan::validate, with "accel"
/// meaning \p AccelDevice ("cuda:0", or "meta" for the stand-in). Errors of
/// the replayed operations become verdicts; this never throws for them. The
/// verdict's outcome, message, reason, step and micros are set; the caller
/// adds where it ran and which plan it was.
plan::Verdict replay(const nlohmann::json &Plan,
                     const std::string &AccelDevice);

} // namespace torch_tidy::runtime

#endif // TORCH_TIDY_RUNTIME_INTERPRETER_H
