//===--- CheckRunner.h - clang-tidy's engine on one file --------*- C++ -*-===//
//
// runClangTidy() of clang-tidy, with what a project-scale run needs: the
// checks walk only the user's code (UserCodeScope.h), the file may start from
// a precompiled header its leading includes share with other files
// (SharedPch.h), and the run says which files it read (for the result cache).
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_CHECKRUNNER_H
#define TORCH_TIDY_TOOL_CHECKRUNNER_H

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <string>
#include <vector>

namespace torch_tidy {

struct CheckRunOptions {
  bool FixNotes = false;
  /// A precompiled header of the file's leading includes; empty for none.
  std::string SharedPch;
};

struct CheckRun {
  std::vector<clang::tidy::ClangTidyError> Errors;
  /// The files the parse read, absolute: those it entered, and those the
  /// shared precompiled header was built from.
  std::vector<std::string> Read, ReadThroughPch;
  /// The precompiled header could not be loaded, so nothing was analysed.
  bool PchRejected = false;
};

CheckRun runChecks(clang::tidy::ClangTidyContext &Context,
                   const clang::tooling::CompilationDatabase &Database,
                   const std::string &File,
                   llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FS,
                   const CheckRunOptions &Options);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_CHECKRUNNER_H
