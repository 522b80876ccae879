//===--- CompileDatabase.h - Finding and loading compile commands ---------===//

#ifndef TORCH_TIDY_TOOL_COMPILEDATABASE_H
#define TORCH_TIDY_TOOL_COMPILEDATABASE_H

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <optional>
#include <string>

namespace torch_tidy {

/// Loads `compile_commands.json` from \p BuildPath (a directory or the file
/// itself). A missing or malformed database is an error naming the file.
llvm::Expected<std::unique_ptr<clang::tooling::CompilationDatabase>>
loadFromBuildPath(llvm::StringRef BuildPath);

/// The nearest `compile_commands.json` to \p SourceFile: in its directory or
/// a parent, as clang-tidy looks; with \p InBuildDirectories also in a
/// `build/` beside each of them, as clangd looks. None when there is none.
std::optional<std::string> findCompileDatabase(llvm::StringRef SourceFile,
                                               bool InBuildDirectories);

/// Looks for `compile_commands.json` in the directory of \p SourceFile and its
/// parents, as clang-tidy does. Null when there is none; an error when the
/// nearest one is malformed.
llvm::Expected<std::unique_ptr<clang::tooling::CompilationDatabase>>
discoverAbove(llvm::StringRef SourceFile);

/// Wraps \p Base so that every command parses with our clang: the resource
/// directory of clang 19 is added, and GCC-only flags that clang rejects are
/// dropped (each reported once on stderr). nvcc commands become clang++
/// ones and CUDA sources parse their host side (CudaCommand.h).
std::unique_ptr<clang::tooling::CompilationDatabase>
adaptForClang(std::unique_ptr<clang::tooling::CompilationDatabase> Base);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_COMPILEDATABASE_H
