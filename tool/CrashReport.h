//===--- CrashReport.h - A finding for a file whose analysis crashed ------===//
//
// A worker process that dies (a signal, an abort, a stack overflow, a time
// limit) costs its file only: the file gets one torch-tidy-crash error
// finding. LLVM prints a "Stack dump:" of what was being processed on the
// worker's stderr; the finding names the innermost entry: the check and the
// declaration it was processing, or the parser's position.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_CRASHREPORT_H
#define TORCH_TIDY_TOOL_CRASHREPORT_H

#include "Finding.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace torch_tidy {

inline constexpr llvm::StringLiteral CrashCheckName = "torch-tidy-crash";

/// The innermost entry of LLVM's stack dump.
struct CrashContext {
  std::string Check;       // the check whose matcher callback ran, if any
  std::string Declaration; // e.g. "FunctionDecl train", or the parser's state
  std::optional<std::string> File;
  unsigned Line = 0, Column = 0;
};

std::optional<CrashContext> parseStackDump(llvm::StringRef Stderr);

/// The error finding of \p File, whose worker ended as \p How ("Segmentation
/// fault", "exit status 70", ...) and printed \p Stderr.
Finding crashFinding(const std::string &File, llvm::StringRef How,
                     llvm::StringRef Stderr, SourceIndex &Index);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_CRASHREPORT_H
