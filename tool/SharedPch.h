//===--- SharedPch.h - Precompiled headers that files share -----*- C++ -*-===//
//
// The driver's side of the shared precompiled headers: where the header of a
// shared prefix (SharedPrefixPlan.h) lives, whether the one there is still
// valid, and recording a newly built one. A header is keyed by torch-tidy's
// build, the compile command but for the file, and the prefix; it is valid
// while every file it was built from is unchanged (contents, not times).
// Headers live in the cache directory, or in a directory of the run's own.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_SHAREDPCH_H
#define TORCH_TIDY_TOOL_SHAREDPCH_H

#include "ContentDigest.h"
#include "SharedPrefixPlan.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace torch_tidy {

/// The files of one shared precompiled header.
struct PchSlot {
  std::string PrefixHeader; // the includes, as a header
  std::string Pch;          // the precompiled header
  std::string Inputs;       // the files it was built from, with digests
};

class SharedPchStore {
public:
  /// Headers are kept under \p Directory.
  SharedPchStore(std::string Directory, FileDigests &Digests)
      : Directory(std::move(Directory)), Digests(Digests) {}

  PchSlot slotFor(const SharedPrefix &Prefix, llvm::StringRef Tool) const;

  /// Whether \p Slot holds a header built from files that are unchanged.
  bool isValid(const PchSlot &Slot) const;

  /// Writes the prefix header of \p Prefix; returns the temporary file the
  /// precompiled header is to be written to.
  llvm::Expected<std::string> prepare(const PchSlot &Slot,
                                      const SharedPrefix &Prefix) const;

  /// Puts \p Built in place and records \p Inputs, the files it was built
  /// from.
  llvm::Error commit(const PchSlot &Slot, const std::string &Built,
                     const std::vector<std::string> &Inputs) const;

  /// Marks \p Slot as used now (the cache evicts the least recently used).
  void touch(const PchSlot &Slot) const;

private:
  std::string Directory;
  FileDigests &Digests;
};

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_SHAREDPCH_H
