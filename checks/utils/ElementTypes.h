//===--- ElementTypes.h - What a container or aggregate holds -------------===//

#ifndef TORCH_TIDY_CHECKS_UTILS_ELEMENTTYPES_H
#define TORCH_TIDY_CHECKS_UTILS_ELEMENTTYPES_H

#include "clang/AST/Type.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::torch_tidy::utils {

/// The types a value of \p Type holds: the elements of a standard sequence
/// (`vector`, `deque`, `list`, `array`, `optional`), the mapped type of a
/// standard map, the members of `pair` and `tuple`, the fields of an
/// aggregate class, what an iterator points to. Empty for anything else.
llvm::SmallVector<QualType, 4> elementTypes(QualType Type);

/// Whether \p Type is a standard map or unordered map.
bool isStandardMap(QualType Type);

} // namespace clang::tidy::torch_tidy::utils

#endif // TORCH_TIDY_CHECKS_UTILS_ELEMENTTYPES_H
