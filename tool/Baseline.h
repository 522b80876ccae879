//===--- Baseline.h - Findings recorded to be ignored until they change ---===//
//
// A team adopts a gate only if day one is green: --write-baseline records
// today's findings, --baseline counts only the others. A finding is known by
// its rule, its file (relative to the source root), a hash of the text of the
// line it is reported on and of the lines of its notes (whitespace removed),
// and which occurrence of that triple it is in the file. Never by a line
// number: an edit above a finding must not make it new. The format is in
// docs/baseline.md.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_BASELINE_H
#define TORCH_TIDY_TOOL_BASELINE_H

#include "Finding.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace torch_tidy {

struct FindingIdentity {
  std::string Rule;
  std::string Path; // relative to the source root where it is under it
  std::string Hash; // 16 hexadecimal digits
  unsigned Occurrence = 0; // 1 for the first of its rule, path and hash
  std::string Line; // the reported line, trimmed: for readers only

  using Key = std::tuple<std::string, std::string, std::string, unsigned>;
  Key key() const { return {Rule, Path, Hash, Occurrence}; }
  /// "hash:occurrence", the result's partialFingerprints in SARIF.
  std::string fingerprint() const {
    return Hash + ":" + std::to_string(Occurrence);
  }
};

/// \p Path relative to \p SourceRoot when it is under it, else as it is.
std::string relativeToRoot(llvm::StringRef Path, llvm::StringRef SourceRoot);

/// The identity of each of \p Findings (sorted as the driver sorts them), in
/// their order; the files are read for the text of the lines.
std::vector<FindingIdentity> identify(const std::vector<Finding> &Findings,
                                      llvm::StringRef SourceRoot);

/// A baseline records what the checks found; compiler errors and crashes
/// always count.
bool belongsInBaseline(const Finding &F);

/// The baseline file's text: sorted, one finding a line.
std::string formatBaseline(std::vector<FindingIdentity> Entries);

/// Writes the baseline of \p Findings to \p Path, atomically.
llvm::Error writeBaseline(llvm::StringRef Path,
                          const std::vector<Finding> &Findings,
                          const std::vector<FindingIdentity> &Identities);

/// Reads a baseline file; a one-line error naming it if it is not one.
llvm::Expected<std::vector<FindingIdentity>>
readBaseline(llvm::StringRef Path);

struct BaselineComparison {
  std::vector<bool> Unchanged; // per finding: it is in the baseline
  std::vector<FindingIdentity> Absent; // in the baseline, not found now
};

/// Compares this run's findings with \p Baseline. Only the entries whose
/// file was analysed can be found absent: \p AnalysedPaths (relative as the
/// entries' paths) or, without it, every entry.
BaselineComparison
compareWithBaseline(const std::vector<Finding> &Findings,
                    const std::vector<FindingIdentity> &Identities,
                    const std::vector<FindingIdentity> &Baseline,
                    const std::optional<std::set<std::string>> &AnalysedPaths);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_BASELINE_H
