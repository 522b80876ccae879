//===--- Verdict.h - What the probe says about each plan --------*- C++ -*-===//
//
// The verdict of one replay and the verdicts file torch-tidy-probe writes
// (docs/probe.md, "Verdicts"): the one schema the probe writes and the
// analyzer's driver reads. Like Plan.h, this needs no LibTorch and no LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_RUNTIME_VERDICT_H
#define TORCH_TIDY_RUNTIME_VERDICT_H

#include "runtime/Plan.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace torch_tidy::plan {

inline constexpr const char *kVerdictsFormatName = "torch-tidy-verdicts";
inline constexpr int kVerdictsFormatVersion = 1;

/// Verdict outcomes (the "verdict" field).
namespace outcome {
/// The observable was seen.
inline constexpr const char *Confirmed = "confirmed";
/// The replay ran clean: the finding is likely a false positive.
inline constexpr const char *NotReproduced = "not-reproduced";
/// The backend cannot decide; the reason says why.
inline constexpr const char *Inconclusive = "inconclusive";
/// The plan was rejected by the validator and never run.
inline constexpr const char *Invalid = "invalid";
} // namespace outcome

/// The verdict on one plan. Empty strings and unset optionals are absent
/// from the JSON.
struct Verdict {
  std::string Outcome; ///< One of the outcome:: names.
  std::string Message; ///< LibTorch's message (first line) or the fact seen.
  std::string Reason;  ///< Why the verdict is inconclusive or invalid.
  std::optional<int64_t> Step;  ///< The step the verdict is about.
  std::optional<double> Micros; ///< Per iteration, for "timing".
  std::string
      Device;        ///< Where it ran: "cuda:0 NVIDIA H200", "meta (stand-in)".
  std::string Id;    ///< The plan's id (its finding's).
  std::string Check; ///< The plan's check.
  std::string File;  ///< The plan file the probe read.
};

/// Everything torch-tidy-probe reports about one run.
struct VerdictsDocument {
  std::string Backend;      ///< "cuda:0" or "meta".
  std::string Device;       ///< As in each verdict.
  nlohmann::json Inventory; ///< As `--inventory` prints it; null if absent.
  std::vector<Verdict> Verdicts;
};

/// Reads one verdict, or returns the first problem in \p J.
std::variant<Verdict, ValidationError> parseVerdict(const nlohmann::json &J);
nlohmann::json toJson(const Verdict &V);

/// Reads a verdicts file's JSON, or returns the first problem in it. The
/// "summary" is checked for its shape only: it is recomputed when written.
std::variant<VerdictsDocument, ValidationError>
parseVerdicts(const nlohmann::json &J);
/// The document's JSON, with a "summary" counting each outcome.
nlohmann::json toJson(const VerdictsDocument &D);

} // namespace torch_tidy::plan

#endif // TORCH_TIDY_RUNTIME_VERDICT_H
