//===--- Plural.h - "1 file", "2 files" -------------------------*- C++ -*-===//

#ifndef TORCH_TIDY_TOOL_PLURAL_H
#define TORCH_TIDY_TOOL_PLURAL_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace torch_tidy {

/// \p N and \p Noun, with an 's' unless N is 1.
inline std::string plural(size_t N, llvm::StringRef Noun) {
  return std::to_string(N) + " " + Noun.str() + (N == 1 ? "" : "s");
}

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_PLURAL_H
