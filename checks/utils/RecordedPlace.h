//===--- RecordedPlace.h - A source location that outlives its AST -------===//

#ifndef TORCH_TIDY_CHECKS_UTILS_RECORDEDPLACE_H
#define TORCH_TIDY_CHECKS_UTILS_RECORDEDPLACE_H

#include "clang/Basic/SourceManager.h"
#include <optional>
#include <string>

namespace clang::tidy::torch_tidy::utils {

/// A file (absolute, without `.` or `..`) and a byte offset in it: how the
/// checks tell the driver where a plan or a cross-file fact belongs.
struct RecordedPlace {
  std::string File;
  unsigned Offset = 0;
};

/// Where \p Loc is spelled in a file; none outside one.
std::optional<RecordedPlace> recordedPlace(SourceLocation Loc,
                                           const SourceManager &SM);

} // namespace clang::tidy::torch_tidy::utils

#endif // TORCH_TIDY_CHECKS_UTILS_RECORDEDPLACE_H
