//===--- Preamble.h - The precompiled include block of an open file -*- C++ -*-===//
//
// As clangd does: the leading #include block of a file (for LibTorch code,
// <torch/torch.h> and ~12 s of parsing) is precompiled once with clang's
// PrecompiledPreamble, and every later analysis whose include block, command
// and included files are unchanged parses only the rest of the file.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_LSP_PREAMBLE_H
#define TORCH_TIDY_TOOL_LSP_PREAMBLE_H

#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "llvm/ADT/FunctionExtras.h"
#include <optional>
#include <string>
#include <vector>

namespace torch_tidy::lsp {

class FilePreamble {
public:
  /// \p StorageDirectory holds the precompiled preamble's file.
  explicit FilePreamble(std::string StorageDirectory)
      : StorageDirectory(std::move(StorageDirectory)) {}

  /// The preamble of \p Main as \p Invocation compiles it (\p CommandKey
  /// names the command), built first when there is none yet or the one there
  /// is cannot be reused; \p BeforeBuild runs before a build. Null when there
  /// is none to use: the file is then parsed whole.
  const clang::PrecompiledPreamble *
  get(const clang::CompilerInvocation &Invocation,
      const llvm::MemoryBuffer &Main,
      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
      const std::string &CommandKey, llvm::function_ref<void()> BeforeBuild);

  /// The files of the project the preamble included (not system headers).
  const std::vector<std::string> &headers() const { return Headers; }
  /// What the preamble takes on disk.
  size_t bytes() const { return Preamble ? Preamble->getSize() : 0; }

private:
  void build(const clang::CompilerInvocation &Invocation,
             const llvm::MemoryBuffer &Main, clang::PreambleBounds Bounds,
             llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
             const std::string &CommandKey,
             llvm::function_ref<void()> BeforeBuild);

  std::string StorageDirectory;
  std::optional<clang::PrecompiledPreamble> Preamble;
  std::string Key;
  bool HasErrors = false;
  std::vector<std::string> Headers;
};

} // namespace torch_tidy::lsp

#endif // TORCH_TIDY_TOOL_LSP_PREAMBLE_H
