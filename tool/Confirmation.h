//===--- Confirmation.h - Replay plans out, verdicts in -------------------===//

#ifndef TORCH_TIDY_TOOL_CONFIRMATION_H
#define TORCH_TIDY_TOOL_CONFIRMATION_H

#include "Finding.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace torch_tidy {

/// Attaches the plans the checks recorded on this thread to \p Findings.
void attachRecordedPlans(std::vector<Finding> &Findings);

/// Names each plan after its finding (`src/train.cpp:42:7:check`) and gives
/// it its location, paths relative to \p SourceRoot.
void namePlans(std::vector<Finding> &Findings, const std::string &SourceRoot);

/// Writes one `<id>.json` per plan into \p Dir (created if missing).
llvm::Error writePlans(const std::vector<Finding> &Findings,
                       const std::string &Dir);

/// Runs torch-tidy-probe on the plans with \p Backend (auto, cuda or meta)
/// and returns the path of its verdicts file.
llvm::Expected<std::string> runProbe(const std::vector<Finding> &Findings,
                                     const std::string &Backend,
                                     const char *Argv0);

/// Merges a verdicts file into \p Findings: a finding whose plan ran clean is
/// downgraded to a note, or dropped when \p Strict.
llvm::Error mergeVerdicts(std::vector<Finding> &Findings,
                          const std::string &VerdictsFile, bool Strict);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_CONFIRMATION_H
