//===--- Output.h - torch-tidy's output formats ---------------------------===//

#ifndef TORCH_TIDY_TOOL_OUTPUT_H
#define TORCH_TIDY_TOOL_OUTPUT_H

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

/// SARIF 2.1.0 as GitHub code scanning reads it. Paths under \p SourceRoot are
/// written relative to it.
void writeSarif(llvm::raw_ostream &OS, const std::vector<Finding> &Findings,
                const std::string &SourceRoot);

/// The text appended to a finding's message once the probe has judged it.
std::string verdictSuffix(const Finding &F);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_OUTPUT_H
