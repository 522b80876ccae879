//===--- SourceLanguage.h - Which files are C, C++ or CUDA ------*- C++ -*-===//

#ifndef TORCH_TIDY_TOOL_SOURCELANGUAGE_H
#define TORCH_TIDY_TOOL_SOURCELANGUAGE_H

#include "llvm/ADT/StringRef.h"

namespace torch_tidy {

/// Whether clang's driver takes \p Path, by its extension, for C, C++ or
/// CUDA (HIP too): a source, a header or preprocessed output. Not
/// Objective-C, OpenCL, assembly, or a file without an extension, which the
/// driver passes to the linker.
bool isCFamilySource(llvm::StringRef Path);

} // namespace torch_tidy

#endif // TORCH_TIDY_TOOL_SOURCELANGUAGE_H
