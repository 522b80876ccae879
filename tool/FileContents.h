//===--- FileContents.h - Source files read once --------------------------===//

#ifndef TORCH_TIDY_TOOL_FILECONTENTS_H
#define TORCH_TIDY_TOOL_FILECONTENTS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include <map>
#include <string>

namespace torch_tidy {

/// The bytes of files, each read once; empty for a file that cannot be read.
class FileContents {
public:
  llvm::StringRef of(const std::string &File) {
    auto [It, Inserted] = Contents.try_emplace(File);
    if (Inserted)
      if (auto Buffer = llvm::MemoryBuffer::getFile(File))
        It->second = (*Buffer)->getBuffer().str();
    return It->second;
  }

private:
  std::map<std::string, std::string> Contents;
};

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_FILECONTENTS_H
