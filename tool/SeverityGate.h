//===--- SeverityGate.h - The severities that fail a run --------*- C++ -*-===//
//
// --fail-on=bug,hazard,performance: a run fails (exit status 1) when it
// counts a finding of a rule of one of these severities, beside what
// --warnings-as-errors fails it on. None by default, so a plain run keeps
// clang-tidy's exit codes. And the run's count of findings per severity,
// for its summary line.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_SEVERITYGATE_H
#define TORCH_TIDY_TOOL_SEVERITYGATE_H

#include "CheckCatalog.h"
#include "Finding.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace torch_tidy {

class SeverityGate {
public:
  /// Reads --fail-on; a one-line error naming the valid values.
  static llvm::Expected<SeverityGate> fromOptions();
  /// Parses a comma-separated set of severities, e.g. "bug,hazard".
  static llvm::Expected<SeverityGate> parse(llvm::StringRef Severities);

  /// How many of \p Findings fail the run: shown as warnings (not as notes
  /// after the probe's verdict), of a rule whose severity the gate names.
  unsigned failing(const std::vector<Finding> &Findings) const;

  /// The findings of each severity, e.g. "1 bug, 2 performance" (those the
  /// probe did not reproduce and compiler diagnostics left out); "" when
  /// there are none.
  static std::string countsBySeverity(const std::vector<Finding> &Findings);

  /// "torch-tidy: 2 findings treated as errors (--fail-on=bug)" when
  /// findings fail the gate; nothing otherwise.
  void printFailing(const std::vector<Finding> &Findings,
                    llvm::raw_ostream &OS) const;

private:
  std::vector<clang::tidy::torch_tidy::Severity> FailOn;
};

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_SEVERITYGATE_H
