//===--- LineFilter.h - Findings on chosen lines only ---------------------===//
//
// clang-tidy's --line-filter, with its JSON and its rule: a finding counts
// when the first filter whose name ends its file lists no lines or one of the
// finding's lines -- the line it is reported on or the line of one of its
// notes, so a bug whose root cause is on a chosen line counts wherever it is
// reported. Compiler errors, and diagnostics without a file, always count.
// --diff and --diff-file (GitDiff.h) are line filters of changed lines.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_LINEFILTER_H
#define TORCH_TIDY_TOOL_LINEFILTER_H

#include "Finding.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/Support/Error.h"
#include <vector>

namespace torch_tidy {

using LineFilter = std::vector<clang::tidy::FileFilter>;

/// Parses --line-filter's JSON, e.g. [{"name":"x.cpp","lines":[[1,3]]}], as
/// clang-tidy does; a one-line error if it is not valid.
llvm::Expected<LineFilter> parseLineFilter(llvm::StringRef Json);

/// Whether \p F passes \p Filter (every finding passes an empty filter).
bool passesLineFilter(const LineFilter &Filter, const Finding &F);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_LINEFILTER_H
