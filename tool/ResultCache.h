//===--- ResultCache.h - A file's analysis, replayed when nothing changed ===//
//
// The unit stored is a file's whole worker output (Worker.h), as the worker
// wrote it, uninterpreted: a hit gives the driver exactly what a fresh
// analysis would. An entry is keyed by the file, the compile command, the
// configuration that decides the findings (not the output settings) and
// torch-tidy's build, and holds the digest of every file the analysis read
// (the file, its headers, LibTorch's): it is replayed only when all of them
// are unchanged. A file keeps an entry for each of its last few
// configurations, so that runs that alternate between two (a pre-commit
// hook's and the command line's) replay each other's. An entry that cannot
// be read whole is ignored, and written again after the analysis.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_RESULTCACHE_H
#define TORCH_TIDY_TOOL_RESULTCACHE_H

#include "CacheDirectory.h"
#include "ContentDigest.h"
#include "llvm/Support/Chrono.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace torch_tidy {

/// What an analysis depends on besides the files it reads.
struct CacheKey {
  std::string File;    // absolute
  std::string Tool;    // digest of torch-tidy's build and clang's version
  std::string Command; // digest of the file's compile commands
  std::string Config;  // digest of the configuration that decides findings
  /// The same configuration, setting by setting ("Checks",
  /// "CheckOptions.device-sync-in-loop.ReportNecessary", ...), to say which
  /// one changed.
  std::map<std::string, std::string> Settings;
};

struct CacheLookup {
  /// The worker output, on a hit.
  std::optional<std::string> Output;
  /// On a miss, why: "'src/model.h' changed", "not in the cache", ...
  std::string Reason;
};

class ResultCache {
public:
  /// The configurations a file keeps entries for; the least recently used
  /// one beyond them is removed.
  static constexpr size_t ConfigurationsPerFile = 4;

  ResultCache(const CacheDirectory &Directory, FileDigests &Digests)
      : Directory(Directory), Digests(Digests) {}

  CacheLookup lookup(const CacheKey &Key);

  /// Stores \p Output of an analysis that started at \p Started and read
  /// \p Read and, through a shared precompiled header, \p ReadThroughPch.
  /// Nothing is stored when one of them changed since \p Started (the
  /// analysis may have seen either version). \p Because says why the file
  /// was analysed, for --explain-cache.
  void store(const CacheKey &Key, llvm::StringRef Output,
             const std::vector<std::string> &Read,
             const std::vector<std::string> &ReadThroughPch,
             llvm::sys::TimePoint<> Started, llvm::StringRef Because);

  /// For --explain-cache: whether a run would replay \p Key's file and why
  /// not, and why it was analysed the last time.
  std::string explain(const CacheKey &Key);

private:
  struct Entry;
  std::optional<Entry> readEntry(const CacheKey &Key, std::string &Problem);
  std::string staleness(const Entry &E, const CacheKey &Key);
  std::string otherConfiguration(const CacheKey &Key);
  void keepFewConfigurations(const CacheKey &Key);

  const CacheDirectory &Directory;
  FileDigests &Digests;
};

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_RESULTCACHE_H
