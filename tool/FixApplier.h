//===--- FixApplier.h - Apply fix-its to files, atomically ----------------===//

#ifndef TORCH_TIDY_TOOL_FIXAPPLIER_H
#define TORCH_TIDY_TOOL_FIXAPPLIER_H

#include "Finding.h"
#include <string>
#include <vector>

namespace torch_tidy {

struct FixSummary {
  unsigned Suggested = 0;
  unsigned Applied = 0;
  std::vector<std::string> Errors; // one line each: file and reason
};

/// Applies the fixes of \p Findings (each finding's fixes all or none; one
/// that overlaps an earlier one is skipped). With \p FixNotes, a finding
/// without fixes whose notes have exactly one with fixes gets that note's
/// (clang-tidy's --fix-notes). Each file is written to a temporary beside it
/// and renamed over it, so a failure never leaves a file half-written.
FixSummary applyFixes(const std::vector<Finding> &Findings,
                      bool FixNotes = false);

/// Writes \p Contents to \p Path through a temporary file and a rename.
llvm::Error writeFileAtomically(llvm::StringRef Path,
                                llvm::StringRef Contents);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_FIXAPPLIER_H
