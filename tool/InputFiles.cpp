//===--- InputFiles.cpp - The files one parse reads -----------------------===//

#include "InputFiles.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace torch_tidy {

bool InputFiles::sawDependency(llvm::StringRef File, bool FromModule,
                               bool IsSystem, bool IsModuleFile,
                               bool IsMissing) {
  // The precompiled header itself is derived from its inputs; a missing file
  // (-MG) and clang's <built-in> buffers have no contents.
  if (IsModuleFile || IsMissing || File.starts_with("<"))
    return false;
  llvm::SmallString<256> Path(File);
  if (!llvm::sys::path::is_absolute(Path))
    llvm::sys::fs::make_absolute(Directory, Path);
  if (Seen.insert(Path).second)
    (FromModule ? ReadThroughPch : Read).push_back(std::string(Path));
  // The lists above are the record; the base class keeps none.
  return false;
}

} // namespace torch_tidy
