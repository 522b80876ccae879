//===--- AnalysisKeys.h - What an analysis depends on -----------*- C++ -*-===//
//
// The keys of the result cache and of the shared precompiled headers: digests
// of torch-tidy's build, of a file's compile commands and configuration, and
// of what a compile command does but for its file.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_ANALYSISKEYS_H
#define TORCH_TIDY_TOOL_ANALYSISKEYS_H

#include "ResultCache.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <map>
#include <optional>
#include <string>

namespace torch_tidy {

/// torch-tidy's version, clang's, and the digest of \p Executable: another
/// build of the same version is another tool.
std::string toolDigest(const std::string &Executable);

/// The result-cache key of \p File analysed with \p Options (\p FixNotes:
/// fixes of notes are kept) by the tool \p Tool.
CacheKey cacheKeyFor(const std::string &File,
                     const clang::tooling::CompilationDatabase &Database,
                     const clang::tidy::ClangTidyOptions &Options,
                     bool FixNotes, llvm::StringRef Tool);

/// The configuration that decides \p Options's findings, setting by setting
/// (CacheKey::Settings): without the output settings (WarningsAsErrors,
/// UseColor) and the user's name.
std::map<std::string, std::string>
findingSettings(const clang::tidy::ClangTidyOptions &Options, bool FixNotes);

/// What \p File's compile command does but for the file: files with equal
/// keys may share a precompiled header. Nothing when the file cannot share
/// one: several commands, not C++, or a command that includes a header of its
/// own before the file (-include, -include-pch, -imacros) or uses modules.
std::optional<std::string>
sharedHeaderKeyFor(const std::string &File,
                   const clang::tooling::CompilationDatabase &Database,
                   const clang::tidy::ClangTidyOptions &Options);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_ANALYSISKEYS_H
