//===--- Interpreter.h - Replays a plan against LibTorch --------*- C++ -*-===//
//
// Runs a validated replay plan step by step, using only a whitelist of
// LibTorch operations (never user code), and decides the plan's observable.
// This header does not include LibTorch.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_RUNTIME_INTERPRETER_H
#define TORCH_TIDY_RUNTIME_INTERPRETER_H

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace torch_tidy::runtime {

inline constexpr const char *kConfirmed = "confirmed";
inline constexpr const char *kNotReproduced = "not-reproduced";
inline constexpr const char *kInconclusive = "inconclusive";

/// The outcome of one replay.
struct Verdict {
  std::string Outcome; ///< kConfirmed, kNotReproduced or kInconclusive.
  std::string Message; ///< LibTorch's message (first line) or the fact seen.
  std::string Reason;  ///< Why the replay is inconclusive.
  std::optional<int64_t> Step;
  std::optional<double> Micros; ///< Per iteration, for "timing".

  nlohmann::json toJson() const;
  static Verdict fromJson(const nlohmann::json &J);
};

/// Replays \p Plan, which must have passed plan::validate, with "accel"
/// meaning \p AccelDevice ("cuda:0", or "meta" for the stand-in). Errors of
/// the replayed operations become verdicts; this never throws for them.
Verdict replay(const nlohmann::json &Plan, const std::string &AccelDevice);

} // namespace torch_tidy::runtime

#endif // TORCH_TIDY_RUNTIME_INTERPRETER_H
