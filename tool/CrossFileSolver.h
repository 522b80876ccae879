//===--- CrossFileSolver.h - Device facts solved over every file of a run -===//
//
// Each file's analysis leaves summaries with preconditions: findings that
// hold if another file supplies a fact, and facts it supplies, some only if
// another file supplies one in turn (a helper that passes its parameter on
// to a function defined elsewhere). After every file is analysed, the solver
// establishes facts from the unconditional supplies and follows the
// conditional ones to a fixpoint over a monotone set; no file is parsed
// again. A finding whose fact is established carries one note per link of
// the chain that established it.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_CROSSFILESOLVER_H
#define TORCH_TIDY_TOOL_CROSSFILESOLVER_H

#include "CrossFile.h"

namespace torch_tidy {

struct CrossFileResolution {
  std::vector<Finding> Findings;
  /// How many (fact, file) pairs were established.
  size_t Established = 0;
  /// How many derivations the bound on a chain's links cut off: the facts
  /// they would establish are not, and the findings on them stay quiet.
  size_t BoundHits = 0;
};

/// Chains longer than this many links are not followed: a longer one is
/// beyond what the notes of a finding can explain, and the bound keeps the
/// fixpoint's cost linear in the supplies.
inline constexpr unsigned MaxChainLinks = 8;

/// The conditional findings of \p Files whose fact a file other than their
/// own establishes, each with the notes of the chain that does.
CrossFileResolution solveCrossFile(const std::vector<CrossFileFacts> &Files,
                                   unsigned MaxLinks = MaxChainLinks);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_CROSSFILESOLVER_H
