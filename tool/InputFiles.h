//===--- InputFiles.h - The files one parse reads ---------------*- C++ -*-===//

#ifndef TORCH_TIDY_TOOL_INPUTFILES_H
#define TORCH_TIDY_TOOL_INPUTFILES_H

#include "clang/Frontend/Utils.h"
#include <string>
#include <vector>

namespace torch_tidy {

/// Every file a parse reads, system headers included, as clang's dependency
/// files list them: those the preprocessor enters, and those a precompiled
/// header was built from (kept apart: files sharing that header share them).
/// Names are absolute.
class InputFiles : public clang::DependencyCollector {
public:
  /// Relative names are resolved against \p Directory (the command's).
  explicit InputFiles(std::string Directory) : Directory(std::move(Directory)) {}

  bool needSystemDependencies() override { return true; }
  bool sawDependency(llvm::StringRef File, bool FromModule, bool IsSystem,
                     bool IsModuleFile, bool IsMissing) override;

  std::vector<std::string> Read;
  std::vector<std::string> ReadThroughPch;

private:
  std::string Directory;
  llvm::StringSet<> Seen;
};

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_INPUTFILES_H
