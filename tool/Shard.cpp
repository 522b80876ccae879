//===--- Shard.cpp - One of N machines' part of the files -----------------===//

#include "Shard.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include <algorithm>

namespace torch_tidy {

llvm::Expected<ShardSpec> parseShard(llvm::StringRef Text) {
  auto [K, N] = Text.split('/');
  ShardSpec Spec;
  if (K.getAsInteger(10, Spec.Index) || N.getAsInteger(10, Spec.Count) ||
      Spec.Count == 0 || Spec.Index == 0 || Spec.Index > Spec.Count)
    return llvm::createStringError(
        std::errc::invalid_argument,
        "--shard takes K/N with 1 <= K <= N (e.g. --shard=2/4), not '%s'",
        Text.str().c_str());
  return Spec;
}

std::vector<std::string>
selectShard(const std::vector<std::string> &Files, ShardSpec Spec,
            const std::function<uint64_t(const std::string &)> &SizeOf) {
  std::vector<std::pair<uint64_t, std::string>> BySize;
  for (const std::string &File : Files)
    BySize.push_back({SizeOf(File), File});
  std::sort(BySize.begin(), BySize.end(), [](const auto &A, const auto &B) {
    return A.first != B.first ? A.first > B.first : A.second < B.second;
  });
  std::vector<std::string> Selected;
  for (size_t I = 0; I < BySize.size(); ++I) {
    size_t Round = I / Spec.Count, Position = I % Spec.Count;
    size_t Part = Round % 2 == 0 ? Position : Spec.Count - 1 - Position;
    if (Part + 1 == Spec.Index)
      Selected.push_back(BySize[I].second);
  }
  llvm::sort(Selected);
  return Selected;
}

uint64_t fileSizeOnDisk(const std::string &File) {
  uint64_t Size = 0;
  if (llvm::sys::fs::file_size(File, Size))
    return 0;
  return Size;
}

} // namespace torch_tidy
