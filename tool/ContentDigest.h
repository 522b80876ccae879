//===--- ContentDigest.h - Digests of contents and of files -----*- C++ -*-===//
//
// The result cache and the shared precompiled headers are keyed by what
// their inputs contain, never by times: 128 bits of BLAKE3, in hex.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_CONTENTDIGEST_H
#define TORCH_TIDY_TOOL_CONTENTDIGEST_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/Chrono.h"
#include <memory>
#include <mutex>
#include <string>

namespace torch_tidy {

std::string digestOf(llvm::StringRef Bytes);

/// A digest of several fields, each framed by its length, so that ("ab", "c")
/// and ("a", "bc") differ.
class DigestBuilder {
public:
  DigestBuilder &add(llvm::StringRef Field);
  std::string hex();

private:
  llvm::BLAKE3 Hasher;
};

/// The digests of files, each read once per run; safe to share between
/// threads.
class FileDigests {
public:
  struct Digest {
    /// Empty when the file cannot be read.
    std::string Hex;
    /// When it was last modified, as it was read.
    llvm::sys::TimePoint<> Modified;
  };

  const Digest &of(const std::string &Path);

private:
  struct Slot {
    std::once_flag Once;
    Digest Value;
  };
  std::mutex Lock;
  llvm::StringMap<std::unique_ptr<Slot>> Slots;
};

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_CONTENTDIGEST_H
