//===--- Shard.h - One of N machines' part of the files -------------------===//
//
// --shard=K/N analyses the K-th of N parts of the files, so that a CI matrix
// of N jobs spreads one run; `torch-tidy merge` joins their reports. Every
// job computes the same parts from the same list: the files, largest first
// (a file's own size is what varies; its headers are mostly shared), dealt
// to the parts in snake order 1..N, N..1, so the parts differ by at most one
// file and are close in bytes.
//
//===----------------------------------------------------------------------===//

#ifndef TORCH_TIDY_TOOL_SHARD_H
#define TORCH_TIDY_TOOL_SHARD_H

#include "llvm/Support/Error.h"
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace torch_tidy {

struct ShardSpec {
  unsigned Index = 1; // 1-based
  unsigned Count = 1;
};

/// "K/N" with 1 <= K <= N; a one-line error otherwise.
llvm::Expected<ShardSpec> parseShard(llvm::StringRef Text);

/// The files of \p Files in shard \p Spec, sorted; \p SizeOf gives a file's
/// size in bytes.
std::vector<std::string>
selectShard(const std::vector<std::string> &Files, ShardSpec Spec,
            const std::function<uint64_t(const std::string &)> &SizeOf);

/// A file's size on disk, 0 if it cannot be read.
uint64_t fileSizeOnDisk(const std::string &File);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_SHARD_H
