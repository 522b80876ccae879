//===--- LanguageServer.h - torch-tidy --lsp --------------------*- C++ -*-===//
//
// `torch-tidy --lsp` serves the Language Server Protocol over stdin and
// stdout: editors show torch-tidy's findings on unsaved text as the user
// types, with quick fixes (docs/editors.md).
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_LSP_LANGUAGESERVER_H
#define TORCH_TIDY_TOOL_LSP_LANGUAGESERVER_H

#include "Configuration.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/CommandLine.h"
#include <memory>
#include <string>

namespace torch_tidy {

/// The category of the language server's command-line options.
llvm::cl::OptionCategory &languageServerCategory();

/// Whether --lsp was given.
bool languageServerRequested();

/// What the rest of the command line says to the server.
struct LanguageServerInputs {
  const OptionsFactory *Configuration = nullptr;
  std::string BuildPath; // -p
  std::unique_ptr<clang::tooling::CompilationDatabase> FixedDatabase; // '--'
  std::string VerdictsFile, SourceRoot;
  unsigned Jobs = 0; // 0: the number of cores
};

/// Serves until the client says exit (or closes stdin); returns the exit
/// status: 0 after a shutdown request, 1 otherwise or on bad input.
int runLanguageServer(LanguageServerInputs Inputs);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_LSP_LANGUAGESERVER_H
