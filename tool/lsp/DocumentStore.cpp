//===--- DocumentStore.cpp - The editor's open files, saved or not --------===//

#include "DocumentStore.h"
#include "llvm/Support/MemoryBuffer.h"

namespace torch_tidy::lsp {

void DocumentStore::open(Document D) {
  std::lock_guard<std::mutex> Guard(Lock);
  D.Stamp = NextStamp++;
  std::string Path = D.Path;
  Documents[Path] = std::move(D);
}

bool DocumentStore::update(const std::string &Path, int64_t Version,
                           std::string Text) {
  std::lock_guard<std::mutex> Guard(Lock);
  auto It = Documents.find(Path);
  if (It == Documents.end())
    return false;
  It->second.Version = Version;
  It->second.Text = std::move(Text);
  It->second.Stamp = NextStamp++;
  return true;
}

void DocumentStore::close(const std::string &Path) {
  std::lock_guard<std::mutex> Guard(Lock);
  Documents.erase(Path);
}

std::optional<Document> DocumentStore::get(const std::string &Path) const {
  std::lock_guard<std::mutex> Guard(Lock);
  auto It = Documents.find(Path);
  if (It == Documents.end())
    return std::nullopt;
  return It->second;
}

DocumentStore::Snapshot DocumentStore::snapshot() const {
  Snapshot S;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    S.Documents = Documents;
  }
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> Memory(
      new llvm::vfs::InMemoryFileSystem);
  for (const auto &[Path, D] : S.Documents) {
    // A stamp in seconds is a modification time that changes with every
    // edit, and never equals the file's own on disk.
    time_t ModificationTime = static_cast<time_t>(D.Stamp);
    Memory->addFile(Path, ModificationTime,
                    llvm::MemoryBuffer::getMemBufferCopy(D.Text, Path));
  }
  // A physical file system of its own: the shared real one's working
  // directory is the process's, which analyses on other threads set.
  S.Files = new llvm::vfs::OverlayFileSystem(llvm::vfs::createPhysicalFileSystem());
  S.Files->pushOverlay(Memory);
  return S;
}

} // namespace torch_tidy::lsp
