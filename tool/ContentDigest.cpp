//===--- ContentDigest.cpp - Digests of contents and of files -------------===//

#include "ContentDigest.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

namespace torch_tidy {

static std::string hex(const llvm::BLAKE3Result<16> &Bytes) {
  return llvm::toHex(Bytes, /*LowerCase=*/true);
}

std::string digestOf(llvm::StringRef Bytes) {
  return hex(llvm::BLAKE3::hash<16>(llvm::arrayRefFromStringRef(Bytes)));
}

DigestBuilder &DigestBuilder::add(llvm::StringRef Field) {
  std::string Length = std::to_string(Field.size()) + ":";
  Hasher.update(Length);
  Hasher.update(Field);
  return *this;
}

std::string DigestBuilder::hex() { return ::torch_tidy::hex(Hasher.final<16>()); }

const FileDigests::Digest &FileDigests::of(const std::string &Path) {
  Slot *S;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    std::unique_ptr<Slot> &Entry = Slots[Path];
    if (!Entry)
      Entry = std::make_unique<Slot>();
    S = Entry.get();
  }
  std::call_once(S->Once, [&] {
    llvm::sys::fs::file_status Status;
    if (llvm::sys::fs::status(Path, Status) ||
        !llvm::sys::fs::is_regular_file(Status))
      return;
    auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!Buffer)
      return;
    S->Value.Hex = digestOf((*Buffer)->getBuffer());
    S->Value.Modified = Status.getLastModificationTime();
  });
  return S->Value;
}

} // namespace torch_tidy
