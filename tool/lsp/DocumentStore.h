//===--- DocumentStore.h - The editor's open files, saved or not -*- C++ -*-===//
//
// The texts the editor holds, which the analysis reads instead of the disk:
// an unsaved edit of a header changes what every file including it sees.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_LSP_DOCUMENTSTORE_H
#define TORCH_TIDY_TOOL_LSP_DOCUMENTSTORE_H

#include "llvm/Support/VirtualFileSystem.h"
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace torch_tidy::lsp {

struct Document {
  std::string Path; // absolute
  std::string Uri;
  int64_t Version = 0;
  std::string Text;
  /// Changes whenever the text does, across all documents: it stands for
  /// the file's modification time, which is how a precompiled preamble
  /// notices that a header it read has changed.
  uint64_t Stamp = 0;
};

class DocumentStore {
public:
  void open(Document D);
  /// Replaces the text of an open document; false when it is not open.
  bool update(const std::string &Path, int64_t Version, std::string Text);
  void close(const std::string &Path);

  std::optional<Document> get(const std::string &Path) const;

  /// The documents as they are now, and a file system that reads their
  /// texts over the disk; later edits change neither.
  struct Snapshot {
    std::map<std::string, Document> Documents;
    llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> Files;
  };
  Snapshot snapshot() const;

private:
  mutable std::mutex Lock;
  std::map<std::string, Document> Documents;
  uint64_t NextStamp = 1;
};

} // namespace torch_tidy::lsp

#endif // TORCH_TIDY_TOOL_LSP_DOCUMENTSTORE_H
