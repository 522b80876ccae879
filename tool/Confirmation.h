//===--- Confirmation.h - Replay plans out, verdicts in -------------------===//

#ifndef TORCH_TIDY_TOOL_CONFIRMATION_H
#define TORCH_TIDY_TOOL_CONFIRMATION_H

#include "Finding.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace torch_tidy {

/// Names each plan after its finding (`src/train.cpp:42:7:check`) and gives
/// it its location, paths relative to \p SourceRoot.
void namePlans(std::vector<Finding> &Findings, const std::string &SourceRoot);

/// Writes one `<id>.json` per plan into \p Dir (created if missing).
llvm::Error writePlans(const std::vector<Finding> &Findings,
                       const std::string &Dir);

/// Runs torch-tidy-probe on the plans with \p Backend (auto, cuda or meta)
/// and returns the path of its verdicts file (of no verdicts, without running
/// the probe, when no finding has a plan).
llvm::Expected<std::string> runProbe(const std::vector<Finding> &Findings,
                                     const std::string &Backend,
                                     const char *Argv0);

/// Reads a verdicts file with the runtime's schema (runtime/Verdict.h); the
/// error is one line naming the file and the first problem.
llvm::Expected<plan::VerdictsDocument>
readVerdictsFile(const std::string &VerdictsFile);

/// Merges verdicts into \p Findings by plan id: a finding whose plan ran
/// clean is downgraded to a note, or dropped when \p Strict. A finding
/// without a plan is inconclusive: its operation is not replayable, or its
/// rule has no plans.
void mergeVerdicts(std::vector<Finding> &Findings,
                   const plan::VerdictsDocument &Verdicts, bool Strict);

/// readVerdictsFile, then mergeVerdicts.
llvm::Error mergeVerdicts(std::vector<Finding> &Findings,
                          const std::string &VerdictsFile, bool Strict);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_CONFIRMATION_H
