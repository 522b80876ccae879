//===--- GitDiff.h - The lines a change adds ------------------------------===//
//
// --diff[=REV] and --diff-file=PATCH report findings on changed lines only:
// the lines that a unified diff adds become a line filter (LineFilter.h), as
// clang-tidy-diff.py builds one for clang-tidy. A finding whose note is on a
// changed line counts too: its root cause changed.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_GITDIFF_H
#define TORCH_TIDY_TOOL_GITDIFF_H

#include "LineFilter.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace torch_tidy {

/// The lines \p Diff adds, per file; the files' names are joined to \p Base.
/// In a git diff ("diff --git a/x b/x") the "b/" prefix is dropped. A file
/// that only loses lines, or is deleted, has no entry.
LineFilter addedLines(llvm::StringRef Diff, llvm::StringRef Base);

/// A `git diff` of the working tree in the current directory.
struct GitDiff {
  std::string Patch;
  std::string TopLevel; // the repository's root, which its paths are under
};

/// The diff against \p Revision; without one, against the merge base of HEAD
/// and its upstream branch (what a pull request adds). A one-line error when
/// git fails.
llvm::Expected<GitDiff> gitDiff(llvm::StringRef Revision);

/// A patch from a file, or from standard input for "-".
llvm::Expected<std::string> readPatch(llvm::StringRef Path);

/// What the paths of a patch are relative to: the root of the git work tree
/// around the current directory, as git diff writes them and git apply reads
/// them; outside a work tree, the current directory.
std::string patchBase();

/// The files of \p Files (absolute) worth analysing for \p Changed: those it
/// changes, or all of them when it changes a header, which any of them may
/// include.
std::vector<std::string> filesForChange(const std::vector<std::string> &Files,
                                        const LineFilter &Changed);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_GITDIFF_H
