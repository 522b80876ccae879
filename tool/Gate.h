//===--- Gate.h - Which findings count: the options of a CI gate ----------===//
//
// A gate fails a change only on what the change introduces. The options here
// choose which findings count -- on chosen lines (--line-filter), on changed
// lines (--diff, --diff-file), not in a baseline (--baseline) -- and which
// part of the files this machine analyses (--shard). They change nothing
// else: the findings that count are printed, fixed and turned into the exit
// status exactly as without them. SARIF shows the baseline's view of all.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_GATE_H
#define TORCH_TIDY_TOOL_GATE_H

#include "Baseline.h"
#include "LineFilter.h"
#include "Output.h"
#include "Shard.h"
#include "llvm/Support/CommandLine.h"
#include <optional>

namespace torch_tidy {

/// The category of the gate's command-line options.
llvm::cl::OptionCategory &gateCategory();

class Gate {
public:
  /// Reads the options, the baseline and the diff, so that a mistake fails
  /// before any work starts.
  static llvm::Expected<Gate> fromOptions();

  /// --write-baseline's file, if any: the driver checks it is writable.
  std::string baselineToWrite() const;

  /// The files to analyse of \p Files: the shard's part and, when the files
  /// come from the database (\p FromDatabase), those a diff touches.
  std::vector<std::string> select(std::vector<std::string> Files,
                                  bool FromDatabase);

  /// Keeps in \p Findings those that count, writes the baseline, and keeps
  /// for SARIF the view of the baseline; prints a summary unless \p Quiet.
  llvm::Error apply(std::vector<Finding> &Findings,
                    const std::string &SourceRoot, bool Quiet);

  /// Whether apply() keeps every finding (no line filter, no baseline), so
  /// that findings can be printed before it runs.
  bool keepsEveryFinding() const { return !Lines && !Baseline; }

  /// What SARIF shows: every finding on the chosen lines, with the
  /// baseline's state of each, and the fixed ones.
  const std::vector<Finding> &sarifFindings() const { return ForSarif; }
  SarifOptions sarifOptions(const std::string &SourceRoot) const;

private:
  Gate() = default;

  std::optional<LineFilter> Lines; // --line-filter, --diff, --diff-file
  bool FromDiff = false;
  std::optional<ShardSpec> Shard;
  std::optional<std::vector<FindingIdentity>> Baseline;
  /// The files analysed, when not every file of the database is: only their
  /// findings of the baseline can be found fixed.
  std::optional<std::vector<std::string>> Partial;
  std::vector<Finding> ForSarif;
  std::optional<BaselineComparison> Comparison;
};

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_GATE_H
