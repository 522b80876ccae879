//===--- UnknownNames.h - Checks and options that name nothing --*- C++ -*-===//
//
// A misspelt check glob ('devcie-*') switches nothing on or off, and a
// misspelt option key ('device-factory-without-device.Strictt') is never
// read: both silently. These find them, with the closest known name, as
// clang-tidy's --verify-config does. The known names are what clang-tidy's
// engine can run here and what its checks read (getAllChecksAndOptions).
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_UNKNOWNNAMES_H
#define TORCH_TIDY_TOOL_UNKNOWNNAMES_H

#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace torch_tidy {

/// One line per glob of \p Globs (a Checks or WarningsAsErrors value),
/// positive or negative, that matches no check: "unknown check 'devcie-*';
/// did you mean 'device-*'?". clang's own diagnostics (clang-diagnostic-*)
/// are not checks and are not judged.
std::vector<std::string> unknownChecks(llvm::StringRef Globs);

/// One line per key of \p Options that no check reads: "unknown option
/// 'x.Strictt'; did you mean 'x.Strict'?".
std::vector<std::string>
unknownOptions(const clang::tidy::ClangTidyOptions::OptionMap &Options);

/// Prints each of \p Problems on \p OS as one line, "torch-tidy: warning:
/// WHERE: problem".
void warnEach(llvm::raw_ostream &OS, const llvm::Twine &Where,
              const std::vector<std::string> &Problems);

/// Warns on \p OS, one line each, about the unknown names of a configuration
/// read from \p Source (a file, or --config): "torch-tidy: warning: SOURCE:
/// Checks: unknown check ...".
void warnAboutUnknownNamesIn(const clang::tidy::ClangTidyOptions &Options,
                             llvm::StringRef Source, llvm::raw_ostream &OS);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_UNKNOWNNAMES_H
