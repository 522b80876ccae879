//===--- CacheDirectory.h - Where the caches live ---------------*- C++ -*-===//
//
// One directory holds the result cache and the shared precompiled headers:
// --cache-dir, else $XDG_CACHE_HOME/torch-tidy, else ~/.cache/torch-tidy.
// Every write goes to a temporary file renamed into place, so runs that share
// the directory, at once or one after the other, read whole entries or none;
// an entry that is not whole is ignored and written again. The directory is
// kept under a size bound by removing the least recently used entries.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_CACHEDIRECTORY_H
#define TORCH_TIDY_TOOL_CACHEDIRECTORY_H

#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace torch_tidy {

class CacheDirectory {
public:
  static constexpr uint64_t DefaultLimit = uint64_t(2) << 30;

  /// $XDG_CACHE_HOME/torch-tidy, else $HOME/.cache/torch-tidy; empty when
  /// neither variable is set.
  static std::string defaultRoot();

  /// Opens the cache at \p Root, creating it; an error when it cannot be
  /// created or written.
  static llvm::Expected<CacheDirectory> open(llvm::StringRef Root,
                                             uint64_t Limit);

  /// Where \p Relative (e.g. "results/ab/abcd.json") lives.
  std::string path(llvm::StringRef Relative) const;
  /// The contents of \p Relative, or nothing when it is missing.
  std::optional<std::string> read(llvm::StringRef Relative) const;
  /// Writes \p Relative whole or not at all, creating its directory.
  llvm::Error write(llvm::StringRef Relative, llvm::StringRef Contents) const;
  /// Marks \p Relative as used now: eviction removes it last.
  void touch(llvm::StringRef Relative) const;
  /// The files of the directory \p Relative, as relative paths, the most
  /// recently used first; none when it does not exist.
  std::vector<std::string> listByUse(llvm::StringRef Relative) const;
  void remove(llvm::StringRef Relative) const;
  /// Removes the least recently used entries (files of results/ and inputs/,
  /// directories of pch/) until the cache is under 90% of its limit, when it
  /// is over it; and temporaries left by interrupted writes.
  void evict() const;

  const std::string &root() const { return Root; }

private:
  CacheDirectory(std::string Root, uint64_t Limit)
      : Root(std::move(Root)), Limit(Limit) {}
  std::string Root; // .../torch-tidy/v1
  uint64_t Limit;
};

/// A size such as "2G", "500M", "64K" or "1000000" (bytes).
std::optional<uint64_t> parseSize(llvm::StringRef Text);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_CACHEDIRECTORY_H
