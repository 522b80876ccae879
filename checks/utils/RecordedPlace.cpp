//===--- RecordedPlace.cpp - A source location that outlives its AST -----===//

#include "RecordedPlace.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace clang::tidy::torch_tidy::utils {

std::optional<RecordedPlace> recordedPlace(SourceLocation Loc,
                                           const SourceManager &SM) {
  SourceLocation Spelling = SM.getFileLoc(Loc);
  auto File = SM.getFileEntryRefForID(SM.getFileID(Spelling));
  if (!File)
    return std::nullopt;
  llvm::SmallString<256> Path(File->getName());
  llvm::sys::fs::make_absolute(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return RecordedPlace{std::string(Path), SM.getFileOffset(Spelling)};
}

} // namespace clang::tidy::torch_tidy::utils
