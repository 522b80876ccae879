//===--- Analysis.h - torch-tidy's rules on an open file --------*- C++ -*-===//
//
// Runs clang-tidy's engine with torch-tidy's rules on the editor's text of a
// file, as the command line does (the same command line, ClangToolSetup.h;
// the same traversal scope of the user's code, UserCodeScope.h), but in this
// process and on top of the file's precompiled preamble. LibTorch's
// declarations, read from the preamble, are not walked, which is most of
// what an edit saves.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_LSP_ANALYSIS_H
#define TORCH_TIDY_TOOL_LSP_ANALYSIS_H

#include "Configuration.h"
#include "Finding.h"
#include "Preamble.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/FunctionExtras.h"
#include <atomic>
#include <map>
#include <string>
#include <vector>

namespace torch_tidy::lsp {

struct AnalysisInputs {
  std::string File; // absolute
  std::string Text; // the editor's, maybe unsaved
  clang::tooling::CompileCommand Command;
  /// The disk with the editor's open documents over it.
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> Files;
  /// The text of each open document (File's included), for positions.
  std::map<std::string, std::string> OpenTexts;
};

struct AnalysisOutput {
  std::vector<Finding> Findings;
  /// A newer edit arrived: the findings are incomplete and must be dropped.
  bool Cancelled = false;
  std::vector<std::string> Headers; // the project's headers the file includes
};

/// The analysis of one open file, keeping its preamble between runs.
class FileAnalyzer {
public:
  FileAnalyzer(const OptionsFactory &Options, std::string PreambleDirectory)
      : Options(Options), Preamble(std::move(PreambleDirectory)) {}

  /// Analyses \p In; stops early once \p Cancelled is set. \p BeforePreambleBuild
  /// runs before the (slow) build of a preamble.
  AnalysisOutput run(const AnalysisInputs &In,
                     const std::atomic<bool> &Cancelled,
                     llvm::function_ref<void()> BeforePreambleBuild);

  /// What the preamble takes on disk.
  size_t preambleBytes() const { return Preamble.bytes(); }

private:
  const OptionsFactory &Options;
  FilePreamble Preamble;
};

} // namespace torch_tidy::lsp

#endif // TORCH_TIDY_TOOL_LSP_ANALYSIS_H
