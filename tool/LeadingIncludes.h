//===--- LeadingIncludes.h - The headers a file starts with -----*- C++ -*-===//
//
// Files that start with the same headers can share a precompiled header of
// them. A file's leading includes are the headers it includes before anything
// else: comments, `#include <...>`, and the leading includes of the project's
// own headers it includes in quotes (found beside the includer or through
// -iquote and -I), looked through when they too start with only includes
// (after `#pragma once` or an include guard). The list stops at
// the first thing that is not an include: code, a `#define`, an `#if`, an
// include through a macro. A header included twice counts once.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_LEADINGINCLUDES_H
#define TORCH_TIDY_TOOL_LEADINGINCLUDES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace torch_tidy {

/// The contents of a file, or nothing when it cannot be read.
using ReadFile =
    llvm::function_ref<std::optional<std::string>(const std::string &Path)>;

/// The leading includes of \p File, each as written: `<torch/torch.h>`, or
/// `"util.h"` for a quoted header found neither beside its includer nor in
/// \p QuotedDirs (so found as the angled ones are). \p QuotedDirs are the
/// directories searched for quoted includes after the includer's: those of
/// -iquote, then of -I.
std::vector<std::string> leadingIncludes(const std::string &File,
                                         llvm::ArrayRef<std::string> QuotedDirs,
                                         ReadFile Read);

/// The directories of -iquote, then those of -I, of \p CommandLine, absolute
/// (relative ones are relative to \p Directory).
std::vector<std::string> quotedIncludeDirs(llvm::ArrayRef<std::string> CommandLine,
                                           llvm::StringRef Directory);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_LEADINGINCLUDES_H
