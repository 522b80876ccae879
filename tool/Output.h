//===--- Output.h - torch-tidy's output formats ---------------------------===//

#ifndef TORCH_TIDY_TOOL_OUTPUT_H
#define TORCH_TIDY_TOOL_OUTPUT_H

#include "Baseline.h"
#include "Finding.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace torch_tidy {

/// clang-tidy's text format, rendered by clang's own diagnostic printer:
/// `file:line:col: warning: message [check]`, the source line and a caret.
void writeText(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
               bool UseColor);

/// One JSON object per finding, in an array.
void writeJson(llvm::raw_ostream &OS, const std::vector<Finding> &Findings);

/// JSON Lines: the objects of writeJson(), one per line, without the array.
void writeJsonLines(llvm::raw_ostream &OS,
                    const std::vector<Finding> &Findings);

/// GitHub Actions' log: each finding as writeText() writes it, then as a
/// workflow command (::error, ::warning or ::notice by severity) that makes
/// it an annotation; paths relative to \p SourceRoot, as the workspace has
/// them.
void writeGitHub(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
                 llvm::StringRef SourceRoot);

/// GitHub Actions' job summary ($GITHUB_STEP_SUMMARY): a Markdown table of
/// \p Findings by rule and severity.
void writeGitHubSummary(llvm::raw_ostream &OS,
                        const std::vector<Finding> &Findings);

/// GitHub code scanning rejects a SARIF run with more results than this
/// (docs.github.com, "SARIF results exceed limit"; it shows the 5,000 most
/// severe of them).
inline constexpr size_t GitHubMaxResultsPerRun = 25000;

struct SarifOptions {
  std::string SourceRoot; // paths under it are written relative to it
  /// automationDetails.id: GitHub's category of the analysis, which ends in
  /// '/' (added as GitHub's upload action adds it). None when empty.
  std::string Category;
  /// With --baseline: the state of each finding, and the fixed ones.
  const BaselineComparison *Baseline = nullptr;
  /// Beyond this many results the least severe are left out, with a note.
  size_t MaxResults = GitHubMaxResultsPerRun;
};

/// SARIF 2.1.0 as GitHub code scanning reads it; returns how many results
/// were left out to stay within Options.MaxResults.
size_t writeSarif(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
                  const SarifOptions &Options);

inline void writeSarif(llvm::raw_ostream &OS,
                       const std::vector<Finding> &Findings,
                       const std::string &SourceRoot) {
  SarifOptions Options;
  Options.SourceRoot = SourceRoot;
  writeSarif(OS, Findings, Options);
}

/// The text appended to a finding's message once the probe has judged it.
std::string verdictSuffix(const Finding &F);

/// The address of the doc page of torch-tidy's rule \p Check; empty for
/// other names (compiler diagnostics have none).
std::string checkDocumentationUri(llvm::StringRef Check);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_OUTPUT_H
