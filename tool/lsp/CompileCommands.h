//===--- CompileCommands.h - The compile command of each open file -*- C++ -*-===//
//
// As clangd finds them: the command after '--' or of -p's database when the
// server was started with one, else the nearest compile_commands.json (in
// the file's directory, a parent, or a build/ beside one). A header, which
// no database lists, borrows the command of a file that includes it; a file
// that nothing names is guessed from its neighbours (clang's interpolation).
// A file with no database at all gets no command, and says why.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_LSP_COMPILECOMMANDS_H
#define TORCH_TIDY_TOOL_LSP_COMPILECOMMANDS_H

#include "clang/Tooling/CompilationDatabase.h"
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace torch_tidy::lsp {

struct FileCommand {
  enum Origin {
    Listed,      // the database lists the file
    Includer,    // borrowed from a file that includes it
    Interpolated,// guessed from the database's other files
    CommandLine, // the flags after '--'
    Missing,     // none: Detail says why
  } From = Missing;
  clang::tooling::CompileCommand Command;
  /// The database's path, the includer's, or why there is no command.
  std::string Detail;
};

/// \p Path made absolute relative to \p Directory (a compile command's),
/// without '.' and '..'.
std::string absoluteIn(llvm::StringRef Directory, llvm::StringRef Path);

class CompileCommands {
public:
  /// \p BuildPath: -p's directory, if any; \p Fixed: the database of the
  /// flags after '--', if any.
  CompileCommands(std::string BuildPath,
                  std::unique_ptr<clang::tooling::CompilationDatabase> Fixed);

  FileCommand commandFor(const std::string &File);

  /// \p Headers are included by \p MainFile, whose command they may borrow.
  void recordIncludes(const std::string &MainFile,
                      const std::vector<std::string> &Headers);

  /// Forgets the databases read so far (their files changed).
  void reload();

private:
  struct Database {
    std::unique_ptr<clang::tooling::CompilationDatabase> Commands;
    std::string Path, Error;
  };
  const Database &databaseFor(const std::string &File);
  std::optional<FileCommand> borrowFromIncluder(const Database &D,
                                                const std::string &Header);

  std::mutex Lock;
  std::string BuildPath;
  std::unique_ptr<clang::tooling::CompilationDatabase> Fixed;
  std::map<std::string, Database> Loaded; // by compile_commands.json path
  std::map<std::string, std::set<std::string>> IncludersOf;
};

} // namespace torch_tidy::lsp

#endif // TORCH_TIDY_TOOL_LSP_COMPILECOMMANDS_H
